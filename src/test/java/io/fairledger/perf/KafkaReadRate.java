package io.fairledger.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Kafka's own {@code ConsumerPerformance} reading a topic from its start in a JVM of its own: the rate a consumer that
 * does no work per record reaches on this machine, which the load tools print next to the server's ingest rate.
 */
public final class KafkaReadRate {

    private KafkaReadRate() {
    }

    /** Runs ConsumerPerformance over the first {@code messages} records of {@code topic}; its records per second. */
    public static double recordsPerSecond(String bootstrap, String topic, long messages)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "org.apache.kafka.tools.ConsumerPerformance",
                "--bootstrap-server", bootstrap, "--topic", topic, "--messages", Long.toString(messages), "--group",
                "bench-" + System.nanoTime(), "--hide-header").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        // start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, ...
        for (String line : output.lines().toList()) {
            String[] f = line.split(",\\s*");
            if (f.length >= 6 && f[4].trim().matches("\\d+")) {
                return Double.parseDouble(f[5].trim());
            }
        }
        throw new IllegalStateException("unexpected ConsumerPerformance output:\n" + output);
    }
}
