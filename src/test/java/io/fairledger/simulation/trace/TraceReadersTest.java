package io.fairledger.simulation.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fairledger.core.admission.JobRequest;

/** Every reader on small fixtures written here (never copied data), and its errors with line numbers. */
class TraceReadersTest {

    @TempDir
    Path tmp;

    private Path write(String name, String content) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    private Path gzip(String name, String content) throws IOException {
        Path p = tmp.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    private static List<TraceJob> read(TraceReader reader, Path file) throws Exception {
        List<TraceJob> jobs = new ArrayList<>();
        reader.read(file, jobs::add);
        return jobs;
    }

    @Test
    void rumenConcatenatedObjects() throws Exception {
        String job1 = "{\"jobID\":\"job_1\",\"submitTime\":1000000,\"queue\":\"q1\",\"mapTasks\":["
                + "{\"startTime\":1001000,\"finishTime\":1011000,\"attempts\":[{\"startTime\":1001000,\"finishTime\":1004000},"
                + "{\"startTime\":1004000,\"finishTime\":1011000}]},"
                + "{\"startTime\":1001000,\"finishTime\":1006000,\"attempts\":[]}],\"reduceTasks\":[]}";
        String job2 = "{\"jobID\":\"job_2\",\"submitTime\":1005000,\"queue\":\"q2\",\"mapTasks\":[],"
                + "\"reduceTasks\":[{\"startTime\":-1,\"finishTime\":-1,\"attempts\":[]}]}";
        List<TraceJob> jobs = read(new RumenReader(), write("r.json", job1 + "\n" + job2 + "\n"));
        assertThat(jobs).hasSize(2);
        // attempts 3 s + 7 s; the second task has no attempt: its own 5 s
        assertThat(jobs.get(0).taskSeconds()).containsExactly(10, 5);
        assertThat(jobs.get(0).compTimeSeconds()).isEqualTo(15);
        assertThat(jobs.get(0).tenant()).isEqualTo("q1");
        assertThat(jobs.get(1).tasks()).isEqualTo(1);
        assertThat(jobs.get(1).compTimeSeconds()).isZero();
        assertThat(jobs.get(1).hasDeadline()).isFalse();
    }

    @Test
    void rumenErrorsNameTheLine() throws IOException {
        Path bad = write("bad.json",
                "{\"jobID\":\"a\",\"submitTime\":1,\"mapTasks\":[{\"startTime\":1,\"finishTime\":2}]}\n"
                        + "{\"jobID\":\"b\",\n\"submitTime\":\"x\"}\n");
        assertThatThrownBy(() -> read(new RumenReader(), bad)).isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("line 2").hasMessageContaining("'submitTime' must be an integer");
        Path broken = write("broken.json", "{\"jobID\":\"a\",\n\"submitTime\":1,,}");
        assertThatThrownBy(() -> read(new RumenReader(), broken)).hasMessageContaining("line 2")
                .hasMessageContaining("malformed JSON");
    }

    @Test
    void slsNative() throws Exception {
        String job = "{\"job.start.ms\":500,\"job.queue.name\":\"q\",\"job.id\":\"j\",\"job.tasks\":["
                + "{\"container.start.ms\":1000,\"container.end.ms\":4000},{\"container.start.ms\":1000,\"container.end.ms\":2000}]}";
        List<TraceJob> jobs = read(new SlsReader(), write("s.json", job + job.replace("\"j\"", "\"k\"")));
        assertThat(jobs).extracting(TraceJob::id).containsExactly("j", "k");
        assertThat(jobs.get(0).taskSeconds()).containsExactly(3, 1);
        assertThat(jobs.get(0).submitSeconds()).isEqualTo(0.5);
        assertThatThrownBy(() -> read(new SlsReader(), write("b.json", "{\"job.id\":\"j\",\"job.start.ms\":0}")))
                .hasMessageContaining("line 1").hasMessageContaining("'job.tasks' must be a non-empty array");
    }

    @Test
    void google2011TaskEventsGzipped() throws Exception {
        String csv = String.join("\n", "600000000,,7,0,,0,u1,2,4,0.1,0.1,0,0", "600000000,,7,1,,0,u1,2,4,,,,",
                "601000000,,7,0,55,1,u1,2,4,,,,", "602000000,,7,1,56,1,u1,2,4,,,,",
                "611000000,,7,0,55,4,u1,2,4,,,,", "607000000,,7,1,56,3,u1,2,4,,,,",
                "603000000,,8,0,,0,u2,0,10,,,,", "604000000,,8,0,3,1,u2,0,10,,,,", "605000000,,8,0,3,4,u2,0,10,,,,",
                "");
        Path file = gzip("task_events.csv.gz", csv);
        List<TraceJob> jobs = read(new Google2011Reader(11), file);
        // job 7: task 0 SCHEDULE 601 s FINISH 611 s counts; task 1 FAILed: not counted
        assertThat(jobs).extracting(TraceJob::id).containsExactly("7", "8");
        assertThat(jobs.get(0).tasks()).isEqualTo(1);
        assertThat(jobs.get(0).compTimeSeconds()).isCloseTo(10, within(1e-9));
        assertThat(jobs.get(0).submitSeconds()).isEqualTo(600);
        assertThat(jobs.get(0).tenant()).isEqualTo("u1");
        // priority 10 is production: left out at max priority 8
        assertThat(read(new Google2011Reader(8), file)).extracting(TraceJob::id).containsExactly("7");
        Path bad = write("bad.csv", "600000000,,7,0,,0,u1,2,4,,,,\n600000000,,x,0,,0,u1,2,4,,,,\n");
        assertThatThrownBy(() -> read(new Google2011Reader(11), bad)).hasMessageContaining("line 2")
                .hasMessageContaining("column 3 (job ID) must be an integer");
    }

    @Test
    void alibaba2017BatchTask() throws Exception {
        String csv = "task_create_time, task_end_time, job_id, task_id,number_of_instances, status, cpus, mem\n"
                + "100,160,3,1,2,Terminated,50,0.1\n" + "90,100,3,2,1,Terminated,100,0.1\n"
                + "95,0,4,1,5,Waiting,100,0.1\n" + "80,200,4,2,1,Failed,100,0.1\n"
                + "-10,20,5,1,1,Terminated,100,0.1\n";
        List<TraceJob> jobs = new ArrayList<>();
        TraceReader.ReadStats stats = new Alibaba2017Reader().read(write("b.csv", csv), jobs::add);
        assertThat(jobs).extracting(TraceJob::id).containsExactly("3", "5");
        assertThat(jobs.get(0).tasks()).isEqualTo(3);
        assertThat(jobs.get(0).submitSeconds()).isEqualTo(90);
        assertThat(jobs.get(0).compTimeSeconds()).isEqualTo(2 * 60 + 10);
        assertThat(jobs.get(0).taskSeconds()).containsExactly(60, 60, 10);
        assertThat(jobs.get(1).submitSeconds()).isEqualTo(-10);
        assertThat(stats.skipped()).isEqualTo(1);
        assertThatThrownBy(() -> read(new Alibaba2017Reader(), write("x.csv", "1,2,3,4,x,Terminated,1,1\n")))
                .hasMessageContaining("line 1").hasMessageContaining("number_of_instances");
    }

    @Test
    void swfRigidJobs() throws Exception {
        String swf = "; Version: 2.2\n; MaxProcs: 128\n"
                + "    1        0     -1   100  8     -1    -1   -1     -1    -1 -1   3   1  -1 -1 -1 -1 -1\n"
                + "    2       50     -1    -1  4     -1    -1   -1     -1    -1 -1   3   1  -1 -1 -1 -1 -1\n"
                + "    3       60     -1    10 -1     -1    -1    2     -1    -1 -1  -1   1  -1 -1 -1 -1 -1\n";
        List<TraceJob> jobs = read(new SwfReader(), gzip("t.swf.gz", swf));
        assertThat(jobs).extracting(TraceJob::id).containsExactly("1", "3");
        assertThat(jobs.get(0).compTimeSeconds()).isEqualTo(800);
        assertThat(jobs.get(0).tenant()).isEqualTo("u3");
        assertThat(jobs.get(1).tasks()).isEqualTo(2);
        assertThatThrownBy(() -> read(new SwfReader(), write("b.swf", ";h\n1 0 -1 100\n")))
                .hasMessageContaining("line 2").hasMessageContaining("expected 18 SWF fields, got 4");
    }

    @Test
    void swimBytesBecomeTasksByTheStatedConversion() throws Exception {
        SwimReader.Conversion c = new SwimReader.Conversion(100, 1000, 10, 1);
        List<TraceJob> jobs = read(new SwimReader(c),
                write("s.tsv", "job0\t5\t5\t250\t1500\t500\njob1\t9\t4\t0\t0\t0\n"));
        // 3 maps of 250/3 bytes: 8.33 s each; 2 reduces of 2000/2 bytes: 100 s each
        assertThat(jobs.get(0).tasks()).isEqualTo(5);
        assertThat(jobs.get(0).compTimeSeconds()).isCloseTo(250 / 10.0 + 200, within(1e-9));
        // nothing to read: one map of the shortest task
        assertThat(jobs.get(1).tasks()).isEqualTo(1);
        assertThat(jobs.get(1).compTimeSeconds()).isEqualTo(1);
        assertThatThrownBy(() -> read(new SwimReader(c), write("b.tsv", "job0\t5\t5\t250\t1500\t500\njob1\t9\t4\n")))
                .hasMessageContaining("line 2").hasMessageContaining("expected 6 tab-separated SWIM columns");
    }

    @Test
    void jsonlAndLoadingShiftsTimesExceptForJsonl() throws Exception {
        Path jsonl = write("j.jsonl", "{\"id\":\"a\",\"submit\":5,\"tasks\":2,\"compTime\":4,\"deadline\":3,"
                + "\"taskDurations\":[2,2]}\n\n{\"id\":\"b\",\"submit\":7,\"tasks\":1,\"compTime\":1,\"deadline\":1}\n");
        Traces.Loaded loaded = Traces.load(jsonl, TraceFormat.JSONL, new JsonlReader(), true);
        assertThat(loaded.jobs()).extracting(JobRequest::submitMillis).containsExactly(5000L, 7000L);
        assertThat(loaded.hasDeadlines()).isTrue();
        assertThat(loaded.taskSeconds().get("a")).containsExactly(2, 2);
        Path swf = write("t.swf", "1 100 -1 10 2 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
                + "2 160 -1 10 2 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n");
        Traces.Loaded shifted = Traces.load(swf, TraceFormat.SWF, new SwfReader(), false);
        assertThat(shifted.jobs()).extracting(JobRequest::submitMillis).containsExactly(0L, 60_000L);
        assertThat(shifted.hasDeadlines()).isFalse();
        assertThat(shifted.taskSeconds()).isEmpty();
        Path dup = write("d.swf", "1 100 -1 10 2 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
                + "1 160 -1 10 2 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n");
        assertThatThrownBy(() -> Traces.load(dup, TraceFormat.SWF, new SwfReader(), false))
                .hasMessageContaining("duplicate job id '1'");
    }
}
