package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.MountableFile;

/**
 * A real Keycloak with the project's realm ({@code src/main/keycloak/fairledger-realm.json}) imported:
 * {@code FAIRLEDGER_TEST_KEYCLOAK_URL} (the realm's issuer URL), else a Testcontainers Keycloak, else the official
 * distribution from Maven Central ({@code org.keycloak:keycloak-quarkus-dist}, unpacked by the build into
 * {@code target/keycloak}) started as a local process in dev mode. Provides {@code quarkus.oidc.auth-server-url}.
 */
public final class KeycloakDependency {

    public static final String VERSION = "26.7.3";
    public static final String REALM = "fairledger";
    static final String REALM_FILE = "src/main/keycloak/fairledger-realm.json";

    private static RealDependency.Running shared;

    private KeycloakDependency() {
    }

    /**
     * One Keycloak for every test class of this JVM that leaves the realm as imported (a start takes one to two minutes
     * on a loaded two-core machine), stopped when the JVM exits; closing what this returns does nothing. A test that
     * changes the realm starts its own with {@link #start()}.
     */
    public static synchronized RealDependency.Running shared() {
        if (shared == null) {
            RealDependency.Running started = start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "keycloak-shared-stop"));
            shared = RealDependency.Running.of(started.config(), () -> {
            });
        }
        return shared;
    }

    public static RealDependency.Running start() {
        return RealDependency.start("Keycloak", KeycloakDependency::fromEnv, KeycloakDependency::container,
                KeycloakDependency::local,
                "Set FAIRLEDGER_TEST_KEYCLOAK_URL to the fairledger realm's URL, or run the build through Maven so it "
                        + "unpacks org.keycloak:keycloak-quarkus-dist:" + VERSION + " into target/keycloak.");
    }

    private static RealDependency.Running fromEnv() {
        String url = RealDependency.env("FAIRLEDGER_TEST_KEYCLOAK_URL");
        return url == null ? null : running(url, () -> {
        });
    }

    @SuppressWarnings("resource")
    private static RealDependency.Running container() {
        GenericContainer<?> container = new GenericContainer<>("quay.io/keycloak/keycloak:" + VERSION)
                .withCommand("start-dev", "--import-realm")
                .withCopyFileToContainer(MountableFile.forHostPath(realmFile()),
                        "/opt/keycloak/data/import/fairledger-realm.json")
                .withExposedPorts(8080)
                .waitingFor(Wait.forHttp("/realms/" + REALM).forStatusCode(200)
                        .withStartupTimeout(Duration.ofMinutes(3)));
        container.start();
        return running("http://" + container.getHost() + ":" + container.getMappedPort(8080) + "/realms/" + REALM,
                container::stop);
    }

    private static RealDependency.Running local() {
        Path home = Path.of(System.getProperty("fairledger.keycloak.home",
                "target/keycloak/keycloak-" + VERSION));
        Path launcher = home.resolve("bin/kc.sh");
        if (!Files.isExecutable(launcher)) {
            throw new IllegalStateException("no Keycloak distribution at " + home.toAbsolutePath());
        }
        try {
            Path data = home.resolve("data");
            Processes.deleteTree(data);
            Files.createDirectories(data.resolve("import"));
            Files.copy(realmFile(), data.resolve("import/fairledger-realm.json"), StandardCopyOption.REPLACE_EXISTING);
            int port = Processes.freePort();
            Path log = Files.createTempFile("fairledger-test-keycloak", ".log");
            ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "start-dev", "--import-realm",
                    "--http-host=127.0.0.1", "--http-port=" + port,
                    "--http-management-port=" + Processes.freePort(), "--cache=local")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            Process process = builder.start();
            // a start that times out in a test's set-up must not leave Keycloak running after the JVM
            Runtime.getRuntime().addShutdownHook(new Thread(() -> Processes.stop(process), "keycloak-stop"));
            String realmUrl = "http://127.0.0.1:" + port + "/realms/" + REALM;
            Processes.awaitHttpOk("Keycloak", realmUrl + "/.well-known/openid-configuration", process,
                    Duration.ofMinutes(4), log.toString());
            return running(realmUrl, () -> Processes.stop(process));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Keycloak from " + home, e);
        }
    }

    /** The realm export, found from the working directory (the project root or integration-tests/). */
    static Path realmFile() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(REALM_FILE);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find " + REALM_FILE + " above " + Path.of("").toAbsolutePath());
    }

    private static RealDependency.Running running(String realmUrl, Runnable stop) {
        return RealDependency.Running.of(Map.of("quarkus.oidc.auth-server-url", realmUrl), stop);
    }
}
