package io.fairledger.it;

import static io.fairledger.it.DeploymentTools.check;
import static io.fairledger.it.DeploymentTools.command;
import static io.fairledger.it.DeploymentTools.repo;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import io.fairledger.observability.MetricNames;

/**
 * The deployment artifacts checked by their own tools, run as processes: the Grafana dashboards type-check against
 * {@code @grafana/schema} with {@code tsc}; the alert rules pass {@code promtool check} and their unit tests
 * ({@code promtool test rules}); the Helm chart passes {@code helm lint --strict} and renders with every
 * {@code ci/*-values.yaml} (a NetworkPolicy in each), its {@code values.schema.json} rejects values of the wrong type,
 * and it refuses to render without a required value (the portal's client secret, say), naming it;
 * {@code docker-compose.yml} passes {@code docker-compose config -q}, also with the {@code demo} profile. Every metric
 * the dashboards and rules name is one of {@link MetricNames} and every one of those is documented in docs/metrics.md.
 */
class DeploymentChecksIT {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void dashboardsTypeCheckAgainstGrafanaSchema() {
        Path grafana = repo().resolve("grafana");
        DeploymentTools.npmCi(grafana);
        String output = check(grafana, "node", "typecheck.mjs");
        assertThat(output).contains(dashboardFiles().size() + " dashboards type-check against @grafana/schema");
    }

    @Test
    void alertRulesAndPrometheusConfigPassPromtool() {
        Path dir = repo().resolve("grafana/prometheus");
        String promtool = DeploymentTools.promtool();
        assertThat(check(dir, promtool, "check", "rules", "fairledger-rules.yml")).contains("SUCCESS: 12 rules found");
        assertThat(check(dir, promtool, "test", "rules", "fairledger-rules.test.yml")).contains("SUCCESS");
        check(dir, promtool, "check", "config", "prometheus.yml");
    }

    @TestFactory
    Stream<DynamicTest> helmChartLintsAndRendersWithEveryCiValuesFile() throws IOException {
        Path chart = repo().resolve("helm/fairledger");
        List<Path> valuesFiles;
        try (Stream<Path> files = Files.list(chart.resolve("ci"))) {
            valuesFiles = files.filter(p -> p.toString().endsWith("-values.yaml")).sorted().toList();
        }
        assertThat(valuesFiles).extracting(p -> p.getFileName().toString())
                .contains("minimal-values.yaml", "full-values.yaml");
        return valuesFiles.stream().map(values -> DynamicTest.dynamicTest(values.getFileName().toString(), () -> {
            String helm = DeploymentTools.helm();
            check(chart, helm, "lint", ".", "--strict", "-f", values.toString());
            Map<String, List<JsonNode>> kinds = render(helm, chart, values);
            assertThat(kinds).containsKeys("Deployment", "Service", "ConfigMap", "ServiceAccount",
                    "PodDisruptionBudget", "Pod");
            JsonNode container = kinds.get("Deployment").get(0).at("/spec/template/spec/containers/0");
            // probes on the management port, which the Service also names (health and metrics are only there)
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                assertThat(container.at("/" + probe + "/httpGet/port").asText()).as(probe).isEqualTo("management");
            }
            assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/q/health/live");
            assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/q/health/ready");
            assertThat(container.get("ports").findValuesAsText("name")).containsExactly("http", "management");
            assertThat(kinds.get("Service").get(0).at("/spec/ports").findValuesAsText("name"))
                    .containsExactly("http", "management");
            assertThat(container.at("/env/0/valueFrom/secretKeyRef/name").asText()).isNotEmpty();
            assertThat(DeploymentTools.secretOf(container, "QUARKUS_OIDC_PORTAL_CREDENTIALS_SECRET"))
                    .as("the portal's client secret").isNotEmpty();
            // on by default: the management port from the test pod and Prometheus, egress to the dependencies
            JsonNode policy = kinds.get("NetworkPolicy").get(0).at("/spec");
            assertThat(policy.at("/ingress/1/ports/0/port").asText()).isEqualTo("management");
            assertThat(policy.at("/ingress/1/from")).as("management port peers: the test pod and Prometheus's")
                    .hasSize(2);
            assertThat(policy.at("/egress/0/ports").findValuesAsText("port")).as("DNS").containsOnly("53");
            assertThat(policy.at("/egress/1/ports").findValuesAsText("port")).as("PostgreSQL, Kafka, Keycloak")
                    .contains("5432").doesNotHaveDuplicates();
            JsonNode testPod = kinds.get("Pod").get(0);
            assertThat(testPod.at("/metadata/annotations/helm.sh~1hook").asText()).isEqualTo("test");
            assertThat(testPod.at("/spec/containers/0/command/2").asText()).contains("/q/health/ready")
                    .contains("/q/metrics");
            String name = values.getFileName().toString();
            // the JVM's options: the heap's share of the memory limit, G1 unless javaOptions picks a collector (two
            // collectors stop the JVM), javaOptions last so that they win
            assertThat(kinds.get("ConfigMap").stream().map(c -> c.at("/data/MALLOC_ARENA_MAX").asText()))
                    .as(name + ": malloc arenas as the launcher sets them").contains("2");
            String javaOptions = kinds.get("ConfigMap").stream().map(c -> c.at("/data/JAVA_TOOL_OPTIONS"))
                    .filter(o -> !o.isMissingNode()).findFirst()
                    .orElseThrow(() -> new AssertionError("no JAVA_TOOL_OPTIONS in the ConfigMaps")).asText();
            assertThat(javaOptions).as(name).startsWith("-XX:MaxRAMPercentage=50 ");
            if (name.startsWith("full")) {
                assertThat(javaOptions).endsWith(" -XX:+UseZGC").doesNotContain("G1");
            } else {
                assertThat(javaOptions).contains(" -XX:+UseG1GC ");
            }
            if (name.startsWith("full") || name.startsWith("exposed")) {
                assertThat(kinds).containsKeys("Ingress");
                JsonNode ingress = kinds.get("Ingress").get(0);
                assertThat(ingress.findValuesAsText("name")).as("Ingress backends").contains("http")
                        .doesNotContain("management");
                JsonNode kafkaCredentials = container.get("env").findParents("name").stream()
                        .filter(env -> env.get("name").asText().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst()
                        .orElseThrow(() -> new AssertionError("no KAFKA_SASL_JAAS_CONFIG in " + container.get("env")));
                assertThat(kafkaCredentials.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("fairledger-kafka");
                assertThat(kinds.get("ConfigMap")).as("the settings ConfigMap passes the Kafka client properties")
                        .anySatisfy(configMap -> assertThat(configMap.at("/data/KAFKA_SECURITY_PROTOCOL").asText())
                                .startsWith("SASL_"));
                // /tmp, the ledger key and the extra mount the values add
                assertThat(container.get("volumeMounts")).hasSize(3);
            } else {
                assertThat(kinds).doesNotContainKeys("Ingress");
            }
            if (name.startsWith("full")) {
                assertThat(kinds).containsKeys("ServiceMonitor", "PrometheusRule", "HorizontalPodAutoscaler");
                JsonNode scrape = kinds.get("ServiceMonitor").get(0).at("/spec/endpoints/0");
                assertThat(scrape.at("/port").asText()).isEqualTo("management");
                // the ServiceMonitor sends the token the server is given
                assertThat(scrape.at("/authorization/credentials/name").asText())
                        .isEqualTo(DeploymentTools.secretOf(container, "FAIRLEDGER_METRICS_SCRAPE_TOKEN")).isNotEmpty();
                assertThat(kinds.get("ConfigMap")).hasSize(1 + dashboardFiles().size());
                JsonNode rulesFile = YAML.readTree(repo().resolve("grafana/prometheus/fairledger-rules.yml").toFile());
                assertThat(kinds.get("PrometheusRule").get(0).at("/spec/groups")).isEqualTo(rulesFile.get("groups"));
                for (JsonNode configMap : kinds.get("ConfigMap")) {
                    configMap.get("data").fields().forEachRemaining(entry -> {
                        if (entry.getKey().endsWith(".json")) {
                            assertThat(parse(entry.getValue().asText())).isEqualTo(
                                    parse(read(repo().resolve("grafana/dashboards").resolve(entry.getKey()))));
                        }
                    });
                }
            } else {
                assertThat(kinds).doesNotContainKeys("ServiceMonitor", "PrometheusRule", "HorizontalPodAutoscaler");
            }
        }));
    }

    @Test
    void imageBuiltWithoutAnEngineRunsTheServerArtifactAsAnUnprivilegedUser() throws IOException {
        Path tar = repo().resolve("target/jib-image.tar");
        assertThat(tar).as("the OCI image archive; build it with `./mvnw -Pimage -DskipTests package` (the README's "
                + "test command builds it with -Pimage)").isRegularFile();
        OciArchive image = OciArchive.of(tar);
        JsonNode config = image.config();
        assertThat(config.at("/os").asText()).isEqualTo("linux");
        assertThat(config.at("/config/User").asText()).isEqualTo("1001:1001");
        JsonNode labels = config.at("/config/Labels");
        assertThat(labels.path("org.opencontainers.image.licenses").asText()).isEqualTo("Apache-2.0");
        assertThat(labels.path("org.opencontainers.image.title").asText()).isEqualTo("fairledger");
        for (String label : List.of("version", "description", "source", "url")) {
            assertThat(labels.path("org.opencontainers.image." + label).asText()).as(label).isNotBlank();
        }
        // the entrypoint runs the artifact the launcher, the chart and compose run, with the chart's arguments
        JsonNode entrypoint = config.at("/config/Entrypoint");
        assertThat(entrypoint.get(0).asText()).isEqualTo("/opt/java/bin/java");
        assertThat(entrypoint.get(entrypoint.size() - 2).asText()).isEqualTo("-jar");
        assertThat(entrypoint.get(entrypoint.size() - 1).asText()).isEqualTo("/app/quarkus-run.jar");
        assertThat(config.at("/config/Cmd").toString()).isEqualTo("[\"serve\"]");
        // the JVM's defaults in one variable, which the chart (and anyone) replaces whole; none on the command line
        assertThat(config.at("/config/Env").toString())
                .contains("JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=50 -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError");
        assertThat(config.at("/config/Env").toString()).contains("MALLOC_ARENA_MAX=2");
        assertThat(entrypoint.toString()).doesNotContain("-XX:");
        assertThat(config.at("/config/ExposedPorts").fieldNames()).toIterable().containsExactlyInAnyOrder("8080/tcp",
                "9000/tcp");
        // what the layers hold: an executable Java runtime, the quarkus-app directory, the user 1001, a writable /tmp
        Map<String, Integer> files = image.files();
        assertThat(files.get("opt/java/bin/java")).as("mode of /opt/java/bin/java").isEqualTo(0755);
        assertThat(files.get("tmp")).as("mode of /tmp").isEqualTo(0777);
        assertThat(files).containsKey("app/quarkus-run.jar").containsKey("app/quarkus/quarkus-application.dat");
        assertThat(files.keySet()).noneMatch(name -> name.startsWith("jib-app"));
        try (Stream<Path> libs = Files.list(repo().resolve("target/quarkus-app/lib/main"))) {
            List<String> built = libs.map(p -> "app/lib/main/" + p.getFileName()).toList();
            assertThat(files.keySet()).as("the libraries of target/quarkus-app").containsAll(built);
        }
        assertThat(image.fileContent("etc/passwd")).contains("fairledger:x:1001:1001:");
        // the chart's default image is this image
        JsonNode values = YAML.readTree(repo().resolve("helm/fairledger/values.yaml").toFile());
        JsonNode chart = YAML.readTree(repo().resolve("helm/fairledger/Chart.yaml").toFile());
        assertThat(values.at("/image/tag").asText()).as("values.yaml image.tag: empty means appVersion").isEmpty();
        String chartImage = values.at("/image/repository").asText() + ":" + chart.get("appVersion").asText();
        assertThat(image.manifestName()).isEqualTo(chartImage);
        assertThat(labels.path("org.opencontainers.image.version").asText())
                .isEqualTo(chart.get("appVersion").asText());
    }

    @Test
    void helmSchemaRejectsAValueOfTheWrongType() {
        Path chart = repo().resolve("helm/fairledger");
        String minimal = chart.resolve("ci/minimal-values.yaml").toString();
        for (String bad : List.of("replicaCount=two", "service.managementPort=metrics", "ingress.enabled=yes",
                "podDisruptionBudget.maxUnavailable=half", "unknownKey=1")) {
            DeploymentTools.Result lint = DeploymentTools.run(chart,
                    command(DeploymentTools.helm(), "lint", ".", "--strict", "-f", minimal, "--set", bad));
            assertThat(lint.exitCode()).as("helm lint --strict --set " + bad + ":\n" + lint.output()).isNotZero();
            assertThat(lint.output()).as("helm lint --set " + bad).contains("values don't meet the specifications")
                    .contains(bad.substring(0, bad.indexOf('=')));
        }
        // the same values with the right types pass
        check(chart, DeploymentTools.helm(), "lint", ".", "--strict", "-f", minimal, "--set",
                "replicaCount=2,service.managementPort=9100,ingress.enabled=true,podDisruptionBudget.maxUnavailable=50%");
    }

    @Test
    void helmRefusesToRenderWithoutARequiredValueAndNamesIt() {
        Path chart = repo().resolve("helm/fairledger");
        String minimal = chart.resolve("ci/minimal-values.yaml").toString();
        Map<List<String>, String> refusals = Map.of(List.of(), "postgresql.jdbcUrl is required",
                List.of("-f", minimal, "--set", "oidc.portalClientSecret.name="),
                "oidc.portalClientSecret.name is required", List.of("-f", minimal, "--set",
                        "serviceMonitor.enabled=true"),
                "metrics.scrapeTokenSecret.name is required with serviceMonitor.enabled",
                List.of("-f", minimal, "--set", "ledgerKey.secret.name="), "ledgerKey.secret.name is required");
        refusals.forEach((values, message) -> {
            List<String> template = command(DeploymentTools.helm(), "template", "fairledger", ".");
            template.addAll(values);
            DeploymentTools.Result result = DeploymentTools.run(chart, template);
            assertThat(result.exitCode()).as(template + ":\n" + result.output()).isNotZero();
            assertThat(result.output()).as(String.join(" ", template)).contains(message);
        });
    }

    @Test
    void composeFileIsValidAndRunsEveryService() throws IOException {
        String compose = DeploymentTools.dockerCompose();
        check(repo(), compose, "-f", "docker-compose.yml", "config", "-q");
        check(repo(), compose, "-f", "docker-compose.yml", "--profile", "demo", "config", "-q");
        JsonNode config = YAML.readTree(
                check(repo(), compose, "-f", "docker-compose.yml", "--profile", "demo", "config"));
        // only the demo's one-shot services are in the profile, so a plain `up` starts none of them
        config.get("services").fields().forEachRemaining(service -> assertThat(
                service.getValue().path("profiles").toString()).as("profiles of " + service.getKey())
                .isEqualTo(service.getKey().startsWith("demo-") ? "[\"demo\"]" : ""));
        Set<String> services = new TreeSet<>();
        config.get("services").fieldNames().forEachRemaining(services::add);
        assertThat(services).contains("kafka", "postgres", "keycloak", "prometheus", "grafana", "fairledger",
                "kafka-topics", "demo-register", "demo-events");
        // every long-running service has a health check, and every dependency waits for health or completion
        Set<String> oneShot = Set.of("kafka-topics", "demo-register", "demo-events");
        config.get("services").fields().forEachRemaining(service -> {
            if (!oneShot.contains(service.getKey())) {
                assertThat(service.getValue().at("/healthcheck/test").isMissingNode())
                        .as(service.getKey() + " has a health check").isFalse();
            }
            service.getValue().path("depends_on").fields().forEachRemaining(dependency -> assertThat(
                    dependency.getValue().path("condition").asText())
                    .as(service.getKey() + " waits for " + dependency.getKey())
                    .isEqualTo(oneShot.contains(dependency.getKey())
                            ? "service_completed_successfully"
                            : "service_healthy"));
        });
        assertThat(config.at("/services/fairledger/depends_on").fieldNames()).toIterable()
                .contains("postgres", "kafka-topics", "keycloak");
        // the topics created are the server's topics
        String topicScript = config.at("/services/kafka-topics/command").toString();
        for (String topic : List.of("fairledger.registrations", "fairledger.yarn.containers", "fairledger.mesos.tasks",
                "fairledger.demand", "fairledger.capacity", "fairledger.jobs", "fairledger.workflows",
                "fairledger.dead-letters", "fairledger.admission-decisions")) {
            assertThat(topicScript).as("kafka-topics creates " + topic).contains(topic);
        }
        // Prometheus scrapes the management port, which the API port is not, with the token the server asks for
        JsonNode scrape = YAML.readTree(repo().resolve("grafana/prometheus/prometheus.yml").toFile())
                .at("/scrape_configs/0");
        assertThat(scrape.toString()).contains("fairledger:9000");
        assertThat(scrape.at("/authorization/credentials").asText()).as("prometheus.yml's scrape token")
                .isEqualTo(config.at("/services/fairledger/environment/FAIRLEDGER_METRICS_SCRAPE_TOKEN").asText())
                .hasSizeGreaterThanOrEqualTo(16);
        // Grafana asks everyone to log in
        assertThat(config.at("/services/grafana/environment/GF_AUTH_ANONYMOUS_ENABLED").asText()).isEqualTo("false");
        // the demo loads the settings of each cluster it registers, and the examples of every topic
        for (String cluster : List.of("prod-yarn", "prod-mesos")) {
            assertThat(read(repo().resolve("demo/register.sh"))).contains(cluster);
            parse(read(repo().resolve("demo/" + cluster + "-settings.json")));
        }
        assertThat(config.at("/services/fairledger/build/dockerfile").asText())
                .endsWith("src/main/docker/Dockerfile.jvm");
        // what the services mount from the repository exists (docker-compose config does not look)
        List<String> missing = new ArrayList<>();
        config.get("services").forEach(service -> service.path("volumes").forEach(volume -> {
            String source = volume.asText().split(":")[0];
            if (source.startsWith("/") && !Files.exists(Path.of(source))) {
                missing.add(volume.asText());
            }
        }));
        assertThat(missing).as("bind mounts whose source does not exist").isEmpty();
        // and so does everything the image build copies from the build context
        Pattern copy = Pattern.compile("(?m)^COPY (?!--from)(.+) \\S+$");
        Matcher m = copy.matcher(read(repo().resolve("src/main/docker/Dockerfile.jvm")));
        int copies = 0;
        while (m.find()) {
            for (String source : m.group(1).strip().split("\\s+")) {
                assertThat(repo().resolve(source)).as("COPY source of Dockerfile.jvm").exists();
                copies++;
            }
        }
        assertThat(copies).as("COPY sources found in Dockerfile.jvm").isGreaterThan(3);
    }

    @Test
    void everyMetricTheDashboardsAndRulesUseIsDefinedAndDocumented() throws IOException {
        Set<String> defined = new TreeSet<>();
        for (Field field : MetricNames.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                try {
                    String name = (String) field.get(null);
                    if (name.startsWith("fairledger.")) {
                        defined.add(name.replace('.', '_'));
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        assertThat(defined).isNotEmpty();
        String docs = read(repo().resolve("docs/metrics.md"));
        assertThat(defined).allSatisfy(name -> assertThat(docs).as("docs/metrics.md documents " + name).contains(name));

        List<Path> sources = new ArrayList<>(dashboardFiles());
        sources.add(repo().resolve("grafana/prometheus/fairledger-rules.yml"));
        Map<String, String> unknown = new TreeMap<>();
        Pattern metric = Pattern.compile("\\bfairledger_[a-z_]+");
        for (Path source : sources) {
            Matcher m = metric.matcher(read(source));
            while (m.find()) {
                String base = m.group().replaceFirst("(_seconds)?_(total|count|sum|max|bucket)$", "");
                if (!defined.contains(base)) {
                    unknown.put(m.group(), source.getFileName().toString());
                }
            }
        }
        assertThat(unknown).as("metrics used but not defined in MetricNames (name -> file)").isEmpty();
    }

    /** Renders the chart and groups the manifests by kind. */
    private static Map<String, List<JsonNode>> render(String helm, Path chart, Path values) throws IOException {
        String manifests = check(chart, helm, "template", "fairledger", ".", "-f", values.toString());
        Map<String, List<JsonNode>> kinds = new TreeMap<>();
        try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(
                manifests.substring(manifests.indexOf("---")))) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document != null && document.has("kind")) {
                    kinds.computeIfAbsent(document.get("kind").asText(), k -> new ArrayList<>()).add(document);
                }
            }
        }
        return kinds;
    }

    static List<Path> dashboardFiles() {
        try (Stream<Path> files = Files.list(repo().resolve("grafana/dashboards"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
