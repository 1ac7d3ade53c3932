package io.fairledger.integrations.mesos;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.integrations.common.BearerToken;
import io.fairledger.integrations.common.BearerTokens;

/**
 * {@code java -jar fairledger-mesos-bridge.jar --cluster ID --master URL[,URL...] --bootstrap-servers HOST:PORT
 * [--heartbeat-timeout SECONDS] [--reconnect-delay MILLIS] [--kafka NAME=VALUE]... [--metrics-port PORT]
 * [--grants-url URL [--grants-interval SECONDS] [--grants-client-id ID (--grants-issuer URL | --grants-token-endpoint
 * URL) [--grants-client-secret-file FILE]] [--grants-token-file FILE]]}: runs the bridge until killed, and with
 * {@code --grants-url} applies fairledger's grants as role weights ({@link GrantWeights}) (docs/integrations.md). The
 * client secret comes from the file or the environment variable {@link BearerTokens#SECRET_ENV}, never from the command
 * line, where every user of the host sees it.
 */
public final class MesosBridgeMain {

    private MesosBridgeMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        Map<String, Object> kafka = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length || !args[i].startsWith("--")) {
                usage("option without a value: " + args[i]);
            }
            if (args[i].equals("--grants-token")) {
                usage("--grants-token is no longer read (a token on the command line is visible to every user and "
                        + "expires): use --grants-client-id with a secret file, or --grants-token-file");
            }
            if (args[i].equals("--kafka")) {
                String[] kv = args[i + 1].split("=", 2);
                if (kv.length != 2) {
                    usage("--kafka takes NAME=VALUE, got " + args[i + 1]);
                }
                kafka.put(kv[0], kv[1]);
            } else {
                options.put(args[i].substring(2), args[i + 1]);
            }
        }
        List<URI> masters = new ArrayList<>();
        for (String m : required(options, "master").split(",")) {
            masters.add(URI.create(m.trim()));
        }
        kafka.put("bootstrap.servers", required(options, "bootstrap-servers"));
        MesosBridge.Settings settings = null;
        try {
            settings = new MesosBridge.Settings(masters, required(options, "cluster"),
                    Duration.ofSeconds(Long.parseLong(options.getOrDefault("heartbeat-timeout", "45"))),
                    Duration.ofMillis(Long.parseLong(options.getOrDefault("reconnect-delay", "2000"))));
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
        }
        MesosBridge bridge = new MesosBridge(settings, new KafkaSink(kafka)).start();
        Runtime.getRuntime().addShutdownHook(new Thread(bridge::close));
        String grantsUrl = options.get("grants-url");
        GrantWeights weights = null;
        if (grantsUrl != null) {
            BearerToken token = null;
            try {
                token = BearerTokens.from("--grants-", name -> options.get("grants-" + name), System.getenv());
            } catch (IllegalArgumentException e) {
                usage(e.getMessage());
            }
            weights = new GrantWeights(grantsUrl, settings.cluster(), token, masters,
                    Duration.ofSeconds(Long.parseLong(options.getOrDefault("grants-interval", "10")))).start();
            Runtime.getRuntime().addShutdownHook(new Thread(weights::close));
        }
        String metricsPort = options.get("metrics-port");
        if (metricsPort != null) {
            MetricsEndpoint metrics = new MetricsEndpoint(new InetSocketAddress(Integer.parseInt(metricsPort)),
                    settings.cluster(), bridge, weights);
            Runtime.getRuntime().addShutdownHook(new Thread(metrics::close));
        }
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            usage("--" + name + " is required");
        }
        return value;
    }

    private static void usage(String problem) {
        System.err.println("fairledger-mesos-bridge: " + problem + "\nusage: --cluster ID --master URL[,URL...] "
                + "--bootstrap-servers HOST:PORT [--heartbeat-timeout SECONDS] [--reconnect-delay MILLIS] "
                + "[--kafka NAME=VALUE]... [--metrics-port PORT] [--grants-url URL [--grants-interval SECONDS] "
                + "[--grants-client-id ID (--grants-issuer URL | --grants-token-endpoint URL) "
                + "[--grants-client-secret-file FILE]] [--grants-token-file FILE]] (the client secret: the file, or "
                + "the environment variable " + BearerTokens.SECRET_ENV + ")");
        System.exit(2);
    }
}
