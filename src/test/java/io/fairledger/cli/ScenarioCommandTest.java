package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ScenarioCommandTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path tmp;

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(ScenarioCommandTest.class.getResource("/scenario/" + name).toURI());
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new ScenarioCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Every field of {@code expectedCase} that the command prints, compared number by number. */
    private static void assertCase(JsonNode expectedCase, JsonNode actual) {
        int compared = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = expectedCase.fields(); it.hasNext();) {
            var field = it.next();
            if (!field.getValue().isObject()) {
                continue;
            }
            JsonNode got = actual.get(field.getKey());
            assertThat(got).as("output has %s", field.getKey()).isNotNull();
            for (Iterator<Map.Entry<String, JsonNode>> t = field.getValue().fields(); t.hasNext();) {
                var tenant = t.next();
                assertThat(numbers(got.get(tenant.getKey()))).as("%s of %s", field.getKey(), tenant.getKey())
                        .isEqualTo(numbers(tenant.getValue()));
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(6);
    }

    private static List<Double> numbers(JsonNode array) {
        List<Double> out = new ArrayList<>();
        array.forEach(n -> out.add(n.doubleValue()));
        return out;
    }

    @Test
    void reproducesTheLtrfCaseFromTheFixture() throws Exception {
        Path outFile = tmp.resolve("ltrf.json");
        Run r = run("--file", fixture("table1.json").toString(), "--policy", "LTRF", "--out", outFile.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode out = MAPPER.readTree(outFile.toFile());
        assertThat(numbers(out.get("accumulated").get("A"))).containsExactly(20.0, 60.0, 140.0, 200.0);
        assertThat(numbers(out.get("accumulated").get("B"))).containsExactly(80.0, 140.0, 160.0, 200.0);
        assertThat(out.has("countedAllocation")).isFalse();
    }

    @Test
    void reproducesAllThreeCasesOfTable1() throws Exception {
        Path table1 = fixture("table1.json");
        JsonNode table = MAPPER.readTree(table1.toFile());
        JsonNode cases = table.get("cases");
        Map<String, String[]> runs = Map.of("MLRF", new String[]{"--policy", "MLRF"}, "LTRF",
                new String[]{"--policy", "LTRF"}, "LTRF_discount_0.5",
                new String[]{"--policy", "LTRF", "--discount", "0.5"});
        for (var e : runs.entrySet()) {
            List<String> args = new ArrayList<>(List.of("--file", table1.toString()));
            args.addAll(List.of(e.getValue()));
            Run r = run(args.toArray(String[]::new));
            assertThat(r.exit()).as("%s: %s", e.getKey(), r.err()).isZero();
            assertCase(cases.get(e.getKey()), MAPPER.readTree(r.out()));
        }
        assertThat(cases.size()).isEqualTo(3);
    }

    @Test
    void badScenarioGivesAMessageAndExitCode2() throws Exception {
        Run r = run("--file", fixture("bad-steps.json").toString(), "--policy", "LTRF");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("newDemand of tenant A must have 2 values");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void missingFileAndBadDiscountAndBadPolicyAreExitCode2() throws Exception {
        assertThat(run("--file", tmp.resolve("none.json").toString(), "--policy", "LTRF").err())
                .contains("cannot read scenario file");
        Run discount = run("--file", fixture("table1.json").toString(), "--policy", "LTRF", "--discount", "1.5");
        assertThat(discount.exit()).isEqualTo(2);
        assertThat(discount.err()).contains("--discount must be in [0,1]");
        assertThat(run("--file", fixture("table1.json").toString(), "--policy", "DRF").exit()).isEqualTo(2);
        Files.writeString(tmp.resolve("broken.json"), "{ not json");
        Run broken = run("--file", tmp.resolve("broken.json").toString(), "--policy", "MLRF");
        assertThat(broken.exit()).isEqualTo(2);
        assertThat(broken.err()).startsWith("scenario: ");
    }
}
