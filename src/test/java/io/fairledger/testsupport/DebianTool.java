package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A command-line tool from a Debian package (prometheus, promtool): the one on the PATH when installed, else the
 * package fetched once with {@code apt-get download} (which needs no root) and unpacked with {@code dpkg-deb} under
 * {@code ~/.cache/fairledger/<package>}.
 */
public final class DebianTool {

    private DebianTool() {
    }

    /** The path of {@code command}, fetching {@code debianPackage} when it is not installed. */
    public static synchronized String path(String debianPackage, String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return Path.of(dir, command).toString();
            }
        }
        Path root = Path.of(System.getProperty("user.home"), ".cache", "fairledger", debianPackage);
        Path unpacked = root.resolve("usr/bin").resolve(command);
        if (!Files.isExecutable(unpacked)) {
            fetch(debianPackage, root);
        }
        if (!Files.isExecutable(unpacked)) {
            throw new IllegalStateException(
                    "Debian package " + debianPackage + " has no " + command + "; install it: apt-get install -y "
                            + debianPackage);
        }
        return unpacked.toString();
    }

    private static void fetch(String debianPackage, Path root) {
        try {
            Path download = Files.createTempDirectory("fairledger-" + debianPackage);
            run(download, "apt-get", "download", debianPackage);
            Path deb;
            try (Stream<Path> files = Files.list(download)) {
                deb = files.filter(p -> p.toString().endsWith(".deb")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("apt-get download left no .deb"));
            }
            Files.createDirectories(root);
            run(download, "dpkg-deb", "-x", deb.toString(), root.toString());
            Processes.deleteTree(download);
            RealDependency.log("fetched Debian package " + debianPackage + " into " + root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot fetch " + debianPackage + "; install it: apt-get install -y "
                    + debianPackage, e);
        }
    }

    private static void run(Path dir, String... command) throws IOException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }
}
