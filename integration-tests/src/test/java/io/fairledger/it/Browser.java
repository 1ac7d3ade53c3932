package io.fairledger.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.fairledger.testsupport.Processes;

/**
 * Debian's headless {@code chromium} driven through {@code chromium-driver} (both installed by {@code .ci/run}), with
 * a fresh profile and download directory per browser, so each user signs in from scratch.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String DRIVER = "/usr/bin/chromedriver";
    static final Duration PAGE_WAIT = Duration.ofSeconds(30);

    final WebDriver driver;
    final Path downloads;
    private final Path profile;

    private Browser(WebDriver driver, Path downloads, Path profile) {
        this.driver = driver;
        this.downloads = downloads;
        this.profile = profile;
    }

    static Browser open() {
        for (String binary : List.of(CHROMIUM, DRIVER)) {
            if (!Files.isExecutable(Path.of(binary))) {
                throw new IllegalStateException("no " + binary + ": install Debian's browser for the portal tests "
                        + "(apt-get install -y chromium chromium-driver; .ci/run does)");
            }
        }
        try {
            Path profile = Files.createTempDirectory("fairledger-it-chromium");
            Path downloads = Files.createTempDirectory("fairledger-it-downloads");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM);
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--no-first-run", "--user-data-dir=" + profile, "--window-size=1280,1000");
            Map<String, Object> prefs = new HashMap<>();
            prefs.put("download.default_directory", downloads.toString());
            prefs.put("download.prompt_for_download", false);
            options.setExperimentalOption("prefs", prefs);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(Path.of(DRIVER).toFile()).usingPort(Processes.freePort()).build();
            return new Browser(new ChromeDriver(service, options), downloads, profile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Goes to {@code url}; when Keycloak's login form shows, signs in as {@code username}. */
    void signIn(String url, String username) {
        driver.get(url);
        find(By.id("username")).sendKeys(username);
        find(By.id("password")).sendKeys(username + "-password");
        find(By.id("kc-login")).click();
    }

    String html() {
        return driver.getPageSource();
    }

    WebElement byId(String id) {
        return find(By.id(id));
    }

    /**
     * The element {@code by} locates, waiting up to {@link #PAGE_WAIT} for it: a click or an Enter that submits a form
     * returns before the next page has loaded, so an immediate lookup would race the navigation.
     */
    WebElement find(By by) {
        return new WebDriverWait(driver, PAGE_WAIT).until(ExpectedConditions.presenceOfElementLocated(by));
    }

    /**
     * Saves a screenshot of the current page as {@code <name>.png} in {@code target/screenshots}, or in the directory
     * {@code -Dfairledger.screenshots=DIR} names: {@code -Dfairledger.screenshots=../docs/portal} refreshes the ones the
     * documentation shows, so an ordinary test run leaves the working tree unchanged.
     */
    void screenshot(String name) {
        try {
            Path dir = Path.of(System.getProperty("fairledger.screenshots", "target/screenshots"));
            Files.createDirectories(dir);
            byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
            Files.write(dir.resolve(name + ".png"), png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void width(int pixels) {
        driver.manage().window().setSize(new Dimension(pixels, 1000));
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            Processes.deleteTree(profile);
            Processes.deleteTree(downloads);
        }
    }
}
