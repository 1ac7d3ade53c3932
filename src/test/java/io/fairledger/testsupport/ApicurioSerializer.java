package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Apicurio Registry's own Avro serializer ({@code io.apicurio.registry.serde.avro.AvroKafkaSerializer}, the version of
 * {@link ApicurioRegistryDependency}), for tests that produce records as Apicurio's users do. The build copies its jars
 * into {@value #JARS} (pom.xml); they are loaded in a class loader of their own, over the test's (which gives Kafka,
 * Avro and Jackson), because on the test classpath Quarkus' Kafka extension takes them for Apicurio 3's and stops the
 * build.
 */
public final class ApicurioSerializer {

    static final String JARS = "target/apicurio-serializer";
    /** The serializer's settings ({@code SerdeConfig}), by their names. */
    public static final String REGISTRY_URL = "apicurio.registry.url";
    public static final String AUTO_REGISTER = "apicurio.registry.auto-register";
    public static final String HEADERS_ENABLED = "apicurio.registry.headers.enabled";
    public static final String ID_HANDLER = "apicurio.registry.id-handler";
    public static final String USE_ID = "apicurio.registry.use-id";
    /** The id handler that writes Confluent's 4-byte id. */
    public static final String FOUR_BYTE_IDS = "io.apicurio.registry.serde.Legacy4ByteIdHandler";

    private static ClassLoader loader;

    private ApicurioSerializer() {
    }

    /**
     * A value serializer against the registry at {@code registryApi} (Apicurio's own API) that registers the schemas
     * it meets, with {@code settings} on top.
     */
    @SuppressWarnings("unchecked")
    public static Serializer<Object> create(String registryApi, Map<String, String> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(REGISTRY_URL, registryApi);
        config.put(AUTO_REGISTER, "true");
        ClassLoader own = loader();
        try {
            Serializer<Object> serializer = (Serializer<Object>) own
                    .loadClass("io.apicurio.registry.serde.avro.AvroKafkaSerializer").getDeclaredConstructor()
                    .newInstance();
            inside(own, () -> {
                serializer.configure(config, false);
                return null;
            });
            return new Serializer<>() {
                @Override
                public byte[] serialize(String topic, Object data) {
                    return inside(own, () -> serializer.serialize(topic, data));
                }

                @Override
                public byte[] serialize(String topic, Headers headers, Object data) {
                    return inside(own, () -> serializer.serialize(topic, headers, data));
                }

                @Override
                public void close() {
                    inside(own, () -> {
                        serializer.close();
                        return null;
                    });
                }
            };
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create Apicurio's AvroKafkaSerializer from " + JARS, e);
        }
    }

    /** Runs {@code call} with {@code loader} as the context class loader, where Kafka's configs look classes up. */
    private static <T> T inside(ClassLoader loader, Supplier<T> call) {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.get();
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static synchronized ClassLoader loader() {
        if (loader == null) {
            Path dir = Path.of(JARS);
            if (!Files.isDirectory(dir)) {
                throw new IllegalStateException("no " + dir.toAbsolutePath()
                        + ": run the tests through Maven, which copies Apicurio's serializer there");
            }
            try (Stream<Path> jars = Files.list(dir)) {
                URL[] urls = jars.filter(p -> p.toString().endsWith(".jar")).map(ApicurioSerializer::url)
                        .toArray(URL[]::new);
                loader = new URLClassLoader("apicurio-serializer", urls, ApicurioSerializer.class.getClassLoader());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return loader;
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
