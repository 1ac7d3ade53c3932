package io.fairledger.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import org.junit.jupiter.api.Test;

/**
 * The defaults of the server's settings are written once, in the {@code @WithDefault}s of the {@code @ConfigMapping}
 * interfaces of {@code io.fairledger}; the settings table of docs/configuration.md must list every key of them with
 * that default ("none" for a key without one), and no key they lack.
 */
class ConfigurationDocTest {

    private static final Path DOC = Path.of("docs/configuration.md");
    /** The header row of the settings table. */
    private static final String HEADER = "| setting (environment variable) | meaning | default |";
    /** A row of it: its first cell's backticked keys, and its last cell. */
    private static final Pattern ROW = Pattern.compile("^\\| (`fairledger\\.[^|]*) \\|.*\\| ([^|]*) \\|$");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
    /** The default a key without {@code @WithDefault} has in the table. */
    private static final String NONE = "none";

    @Test
    void theTableGivesEveryKeyOfEveryMappingWithItsDefault() throws IOException, URISyntaxException {
        Map<String, String> code = new LinkedHashMap<>();
        List<Class<?>> mappings = mappings();
        assertThat(mappings).as("@ConfigMapping interfaces in io.fairledger").contains(FairledgerConfig.class);
        for (Class<?> mapping : mappings) {
            ConfigMapping annotation = mapping.getAnnotation(ConfigMapping.class);
            assertThat(annotation.namingStrategy()).as(mapping.getName() + "'s naming strategy")
                    .isEqualTo(ConfigMapping.NamingStrategy.KEBAB_CASE);
            keys(annotation.prefix(), mapping, code);
        }
        Map<String, String> documented = documented();
        List<String> problems = new ArrayList<>();
        code.forEach((key, value) -> {
            if (!documented.containsKey(key)) {
                problems.add(key + " is not in the table of " + DOC + " (default " + value + ")");
            } else if (!documented.get(key).equals(value)) {
                problems.add(key + ": the table of " + DOC + " says " + documented.get(key) + ", the code " + value);
            }
        });
        documented.keySet().stream().filter(key -> !code.containsKey(key))
                .forEach(key -> problems.add(key + " is in the table of " + DOC + " but no @ConfigMapping has it"));
        assertThat(problems).isEmpty();
    }

    /** The keys of {@code group}'s methods under {@code prefix}, each with its default or {@link #NONE}. */
    private static void keys(String prefix, Class<?> group, Map<String, String> out) {
        for (Method m : group.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isDefault() || m.getParameterCount() > 0) {
                continue;
            }
            String key = prefix + "." + kebab(m.getName());
            Class<?> type = m.getReturnType();
            Type generic = m.getGenericReturnType();
            if (type == Optional.class && generic instanceof ParameterizedType p
                    && p.getActualTypeArguments()[0] instanceof Class<?> c && isGroup(c)) {
                type = c;
            }
            if (isGroup(type)) {
                keys(key, type, out);
            } else {
                WithDefault value = m.getAnnotation(WithDefault.class);
                out.put(key, value == null ? NONE : value.value());
            }
        }
    }

    /** A group of settings: an interface of the server's own, not a value such as a {@code Duration} or an enum. */
    private static boolean isGroup(Class<?> type) {
        return type.isInterface() && type.getName().startsWith("io.fairledger.");
    }

    /** SmallRye's kebab case of a method name: {@code maxTenantsPerCluster} is {@code max-tenants-per-cluster}. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /**
     * The settings table's keys (the table headed {@value #HEADER}): each key of a row's first cell with the first
     * backticked value of its last cell.
     */
    private static Map<String, String> documented() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(DOC)) {
            inTable = line.startsWith(HEADER) || inTable && line.startsWith("|");
            Matcher row = ROW.matcher(line);
            if (!inTable || !row.matches()) {
                continue;
            }
            Matcher value = BACKTICKED.matcher(row.group(2));
            String defaultValue = value.find() ? value.group(1) : row.group(2).strip();
            if (defaultValue.startsWith(NONE)) {
                defaultValue = NONE;
            }
            String first = null;
            Matcher key = BACKTICKED.matcher(row.group(1));
            while (key.find()) {
                String name = key.group(1);
                if (name.startsWith(".")) {
                    // "`fairledger.ingest.registry.username`, `.password`": a sibling of the first key
                    name = first.substring(0, first.lastIndexOf('.')) + name;
                } else if (!name.startsWith("fairledger.")) {
                    continue; // the environment variable
                }
                first = first == null ? name : first;
                out.put(name, defaultValue);
            }
        }
        return out;
    }

    /** Every interface annotated {@code @ConfigMapping} among the compiled classes of {@code io.fairledger}. */
    private static List<Class<?>> mappings() throws IOException, URISyntaxException {
        Path classes = Path.of(FairledgerConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/fairledger"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String relative = classes.relativize(file).toString();
                String name = relative.substring(0, relative.length() - ".class".length()).replace(
                        file.getFileSystem().getSeparator(), ".");
                Class<?> type;
                try {
                    type = Class.forName(name, false, ConfigurationDocTest.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(name, e);
                }
                if (type.isAnnotationPresent(ConfigMapping.class)) {
                    out.add(type);
                }
            }
        }
        return out;
    }
}
