package io.fairledger.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * Where JSON logs and traces are on (docs/deployment.md, "Logs" and "Traces"): the image's environment (the Jib
 * configuration of {@code pom.xml}'s profile {@code image}) turns JSON console logs on, while
 * {@code application.properties}, which standalone mode, dev mode and the tests run with, keeps them plain and keeps
 * the OpenTelemetry SDK off. {@code BatchTracesTest} parses the JSON lines and sees the spans once they are on.
 */
class LoggingAndTracingDefaultsTest {

    @Test
    void theImageLogsJsonAndEveryOtherModeLogsPlainLinesWithoutTraces() throws Exception {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        assertThat(properties).containsEntry("quarkus.log.console.json.enabled", "false")
                .containsEntry("quarkus.otel.sdk.disabled", "true");
        assertThat(imageEnvironment("QUARKUS_LOG_CONSOLE_JSON_ENABLED")).isEqualTo("true");
        assertThat(imageEnvironment("QUARKUS_OTEL_SDK_DISABLED")).as("traces stay the operator's choice").isNull();
    }

    /** The value the image's environment gives {@code name}, or null. */
    private static String imageEnvironment(String name) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        var pom = factory.newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        var environments = pom.getElementsByTagName("environment");
        assertThat(environments.getLength()).as("the Jib container environments of pom.xml").isEqualTo(1);
        var entries = ((Element) environments.item(0)).getElementsByTagName(name);
        return entries.getLength() == 0 ? null : entries.item(0).getTextContent().trim();
    }
}
