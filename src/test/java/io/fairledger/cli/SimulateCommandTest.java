package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCommandTest {

    @TempDir
    Path tmp;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = new CommandLine(new SimulateCommand());
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        return cli.execute(args);
    }

    private static Path fixture() throws URISyntaxException {
        return Path.of(SimulateCommandTest.class.getResource("/simulate/jobs-small.jsonl").toURI());
    }

    @Test
    void writesJobsAndSummaryPerPolicy() throws Exception {
        Path out = tmp.resolve("out");
        int code = run("--jobs", fixture().toString(), "--policy",
                "justice,pythia,oracle,baseline-fs,reactive-fs", "--capacity", "16", "--seed", "3", "--out",
                out.toString());
        assertThat(code).as(err.toString()).isZero();
        for (String policy : List.of("justice", "pythia", "oracle", "baseline-fs", "reactive-fs")) {
            List<String> csv = Files.readAllLines(out.resolve(policy).resolve("jobs.csv"));
            assertThat(csv.get(0)).isEqualTo("id,outcome,cpus,admitTime,finishTime,queuedTime,consumedCpuSeconds");
            assertThat(csv).hasSize(41);
            assertThat(csv.subList(1, csv.size()))
                    .allSatisfy(line -> assertThat(line).matches("j\\d\\d,(MET|MISSED|DROPPED|KILLED),\\d+,.*"));
            JsonNode summary = new ObjectMapper().readTree(out.resolve(policy).resolve("summary.json").toFile());
            for (String metric : List.of("SDR", "PTR", "WTR", "utilization", "fairness", "equality")) {
                assertThat(summary.get(metric).asDouble()).as(policy + " " + metric).isBetween(0.0, 1.0);
            }
        }
        JsonNode oracle = new ObjectMapper().readTree(out.resolve("oracle").resolve("summary.json").toFile());
        assertThat(oracle.get("WTR").asDouble()).isZero();
        List<String> fs = Files.readAllLines(out.resolve("baseline-fs").resolve("jobs.csv"));
        assertThat(fs).noneMatch(line -> line.contains("DROPPED") || line.contains("KILLED"));
    }

    @Test
    void everyParameterIsSettableAndTheRunIsReproducible() throws Exception {
        String[] args = {"--jobs", fixture().toString(), "--policy", "justice", "--capacity", "8", "--smoothing",
                "exponential", "--alpha", "0.3", "--kill-above-tasks", "4", "--priority", "shortest-ttd",
                "--bootstrap-jobs", "3", "--deadlines", "Aria1x3x", "--seed", "9", "--out", ""};
        args[args.length - 1] = tmp.resolve("a").toString();
        assertThat(run(args)).as(err.toString()).isZero();
        args[args.length - 1] = tmp.resolve("b").toString();
        assertThat(run(args)).isZero();
        args[args.length - 1] = tmp.resolve("c").toString();
        args[1] = fixture().toString();
        List<String> argsRescan = new java.util.ArrayList<>(List.of(args));
        argsRescan.add("--rescan");
        assertThat(run(argsRescan.toArray(String[]::new))).isZero();
        String a = Files.readString(tmp.resolve("a/justice/jobs.csv"));
        assertThat(Files.readString(tmp.resolve("b/justice/jobs.csv"))).isEqualTo(a);
        assertThat(Files.readString(tmp.resolve("c/justice/jobs.csv"))).isEqualTo(a);
    }

    private int runOn(String content) throws IOException {
        Path jobs = tmp.resolve("bad.jsonl");
        Files.writeString(jobs, content);
        return run("--jobs", jobs.toString(), "--capacity", "4", "--out", tmp.resolve("o").toString());
    }

    @Test
    void aMalformedLineIsReportedWithItsNumberAndExitCode2() throws IOException {
        String good = "{\"id\":\"a\",\"submit\":0,\"tasks\":1,\"compTime\":1,\"deadline\":10}\n";
        assertThat(runOn(good + "{\"id\":\"b\",\"submit\":0,\n")).isEqualTo(2);
        assertThat(err.toString()).contains("line 2").contains("malformed JSON");
    }

    @Test
    void negativeTasksAreRejectedWithTheLine() throws IOException {
        String good = "{\"id\":\"a\",\"submit\":0,\"tasks\":1,\"compTime\":1,\"deadline\":10}\n";
        assertThat(runOn(good + good.replace("\"a\"", "\"b\"") + good.replace("\"tasks\":1", "\"tasks\":-3")
                .replace("\"a\"", "\"c\""))).isEqualTo(2);
        assertThat(err.toString()).contains("line 3").contains("'tasks' must be >= 1, got -3");
    }

    @Test
    void otherBadInputIsRejected() throws IOException {
        assertThat(runOn("{\"id\":\"a\",\"submit\":0,\"tasks\":1,\"deadline\":10}\n")).isEqualTo(2);
        assertThat(err.toString()).contains("line 1").contains("'compTime' is missing");
        assertThat(runOn("{\"id\":\"a\",\"submit\":0,\"tasks\":1,\"compTime\":1,\"deadline\":10}\n"
                + "{\"id\":\"a\",\"submit\":1,\"tasks\":1,\"compTime\":1,\"deadline\":10}\n")).isEqualTo(2);
        assertThat(err.toString()).contains("line 2").contains("duplicate job id 'a'");
        assertThat(runOn("[1,2]\n")).isEqualTo(2);
        assertThat(err.toString()).contains("expected a JSON object");
    }

    @Test
    void badOptionsExitWith2() throws Exception {
        assertThat(run("--jobs", fixture().toString(), "--capacity", "4", "--policy", "fifo", "--out",
                tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("unknown policy 'fifo'");
        assertThat(run("--jobs", fixture().toString(), "--capacity", "0", "--out", tmp.toString())).isEqualTo(2);
        assertThat(run("--jobs", fixture().toString(), "--capacity", "4", "--smoothing", "exponential", "--alpha",
                "1.5", "--out", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("alpha");
        assertThat(run("--capacity", "4")).isEqualTo(2);
    }

    @Test
    void aTraceFormatWithoutDeadlinesNeedsADeadlineModel() throws IOException {
        Path swf = tmp.resolve("t.swf");
        Files.writeString(swf, "; generated\n1 0 -1 100 8 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
                + "2 30 -1 50 2 -1 -1 -1 -1 -1 -1 2 1 -1 -1 -1 -1 -1\n");
        assertThat(run("--trace", swf.toString(), "--format", "swf", "--capacity", "8", "--out",
                tmp.resolve("o").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("has no deadlines: give --deadlines");
        assertThat(run("--trace", swf.toString(), "--format", "pbs", "--capacity", "8", "--deadlines", "Fixed2x",
                "--out", tmp.resolve("o").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("unknown trace format 'pbs'");
    }

    @Test
    void theMatrixWritesEveryCellTheSummaryCsvPlotsAndTheReport() throws Exception {
        Path swf = tmp.resolve("t.swf");
        Files.writeString(swf, "1 0 -1 100 8 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
                + "2 30 -1 50 2 -1 -1 -1 -1 -1 -1 2 1 -1 -1 -1 -1 -1\n"
                + "3 31 -1 20 4 -1 -1 -1 -1 -1 -1 2 1 -1 -1 -1 -1 -1\n");
        Path out = tmp.resolve("m");
        assertThat(run("--trace", swf.toString(), "--format", "swf", "--capacity", "4,8", "--deadlines",
                "Fixed1x,Jockey2x4x", "--model", "waves", "--policy", "justice,reactive-fs", "--out",
                out.toString())).as(err.toString()).isZero();
        for (String d : List.of("Fixed1x", "Jockey2x4x")) {
            for (String c : List.of("c4", "c8")) {
                for (String p : List.of("justice", "reactive-fs")) {
                    assertThat(out.resolve(d).resolve(c).resolve(p).resolve("jobs.csv")).exists();
                    assertThat(out.resolve(d).resolve(c).resolve(p).resolve("summary.json")).exists();
                }
            }
        }
        List<String> csv = Files.readAllLines(out.resolve("summary.csv"));
        assertThat(csv.get(0)).isEqualTo(
                "deadlines,capacity,policy,jobs,SDR,PTR,WTR,utilization,fairness,equality,seconds");
        assertThat(csv).hasSize(1 + 8);
        for (String metric : List.of("SDR", "PTR", "WTR", "utilization", "fairness", "equality")) {
            assertThat(out.resolve("plots").resolve(metric + "-c4.png")).isNotEmptyFile();
            assertThat(Files.readString(out.resolve("plots").resolve(metric + "-c8.svg"))).contains("<svg");
        }
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("data:image/png;base64,").contains("reactive-fs").doesNotContain("src=\"plots");
    }

    @Test
    void syntheticRunsAreReproducible() throws Exception {
        String[] args = {"--synthetic", "300", "--seed", "4", "--capacity", "50", "--deadlines", "90loose",
                "--no-report", "--out", ""};
        args[args.length - 1] = tmp.resolve("a").toString();
        assertThat(run(args)).as(err.toString()).isZero();
        args[args.length - 1] = tmp.resolve("b").toString();
        assertThat(run(args)).isZero();
        for (String p : POLICY_NAMES) {
            assertThat(Files.readString(tmp.resolve("b").resolve(p).resolve("jobs.csv")))
                    .isEqualTo(Files.readString(tmp.resolve("a").resolve(p).resolve("jobs.csv")));
        }
        assertThat(Files.readAllLines(tmp.resolve("a").resolve("baseline-fs").resolve("jobs.csv"))).hasSize(301);
    }

    @Test
    void tenantExperimentWritesSeriesAndPlots() throws Exception {
        Path out = tmp.resolve("te");
        assertThat(run("--tenant-experiment", "--te-capacity", "20", "--te-phases", "4", "--te-phase-hours", "1",
                "--out", out.toString())).as(err.toString()).isZero();
        List<String> ltrf = Files.readAllLines(out.resolve("tenants-ltrf.csv"));
        assertThat(ltrf.get(0)).isEqualTo("seconds,rho_t0,rho_t1,omega,psi,utilization");
        assertThat(ltrf).hasSize(1 + 4 * 6 + 1);
        assertThat(out.resolve("tenants-mlrf.csv")).exists();
        assertThat(out.resolve("plots").resolve("omega.svg")).isNotEmptyFile();
        assertThat(out.resolve("plots").resolve("rho-mlrf.png")).isNotEmptyFile();
        assertThat(run("--tenant-experiment", "--te-memory", "weekly", "--out", out.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--te-memory must be full, rounds:H or decay:H");
    }

    private static final List<String> POLICY_NAMES = List.of("justice", "pythia", "oracle", "baseline-fs",
            "reactive-fs");
}
