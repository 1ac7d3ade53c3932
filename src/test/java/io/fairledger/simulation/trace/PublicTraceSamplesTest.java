package io.fairledger.simulation.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.SharedData;

/**
 * The readers on the real public samples in {@code ../shared/data} (never copied into the repository), checked
 * against the counts their SOURCE.md files state. Fails, naming the directory, when the samples are absent.
 */
@Tag(SharedData.TAG)
class PublicTraceSamplesTest {

    static Path data() {
        return SharedData.dir();
    }

    private static Path sample(String relative) {
        Path p = data().resolve(relative);
        assertThat(p).as("public trace sample " + p + " (see its SOURCE.md)").exists();
        return p;
    }

    private static List<TraceJob> read(TraceReader reader, Path file, TraceReader.ReadStats[] stats)
            throws Exception {
        List<TraceJob> jobs = new ArrayList<>();
        stats[0] = reader.read(file, jobs::add);
        return jobs;
    }

    @Test
    void slsRumenTwoJobsTwoMinutes() throws Exception {
        var stats = new TraceReader.ReadStats[1];
        List<TraceJob> jobs = read(new RumenReader(), sample("sls/2jobs2min-rumen-jh.json"), stats);
        assertThat(jobs).extracting(TraceJob::tasks).containsExactly(96, 96, 1);
        // SOURCE.md: summed attempt time 2,024,885 ms and 1,961,401 ms
        assertThat(jobs.get(0).compTimeSeconds()).isCloseTo(2024.885, within(1e-6));
        assertThat(jobs.get(1).compTimeSeconds()).isCloseTo(1961.401, within(1e-6));
        assertThat(jobs).allSatisfy(j -> assertThat(j.tenant()).isEqualTo("sls_queue_1"));
    }

    @Test
    void slsNativeInput() throws Exception {
        var stats = new TraceReader.ReadStats[1];
        List<TraceJob> jobs = read(new SlsReader(), sample("sls/inputsls.json"), stats);
        assertThat(jobs).extracting(TraceJob::id).containsExactly("job_1", "job_2");
        assertThat(jobs.get(0).tasks()).isEqualTo(3);
    }

    @Test
    void google2011FirstShard() throws Exception {
        var stats = new TraceReader.ReadStats[1];
        List<TraceJob> jobs = read(new Google2011Reader(11),
                sample("google2011/task_events-part-00000-of-00500.csv.gz"), stats);
        // SOURCE.md: 450,146 task events, 4,895 jobs, 43,151 distinct tasks from SCHEDULE to FINISH inside the
        // slice; the reader counts runs, and a task rescheduled after it finished runs twice (86 more here)
        assertThat(stats[0].records()).isEqualTo(450_146);
        assertThat(jobs.size() + stats[0].skipped()).isEqualTo(4_895);
        assertThat(jobs.stream().mapToLong(TraceJob::tasks).sum()).isBetween(43_151L, 43_151L + 100);
    }

    @Test
    void alibaba2017BatchTask() throws Exception {
        var stats = new TraceReader.ReadStats[1];
        List<TraceJob> jobs = read(new Alibaba2017Reader(), sample("alibaba2017/batch_task.csv"), stats);
        // SOURCE.md: 80,553 rows (plus the header), 12,951 jobs
        assertThat(stats[0].records()).isEqualTo(80_554);
        assertThat(jobs.size() + stats[0].skipped()).isEqualTo(12_951);
    }

    @Test
    void swfNasaIpsc() throws Exception {
        var stats = new TraceReader.ReadStats[1];
        List<TraceJob> jobs = read(new SwfReader(), sample("pwa/NASA-iPSC-1993-3.1-cln.swf.gz"), stats);
        // SOURCE.md: 18,239 jobs, 474,238,015 processor-seconds
        assertThat(jobs).hasSize(18_239);
        assertThat(jobs.stream().mapToDouble(TraceJob::compTimeSeconds).sum()).isEqualTo(474_238_015.0);
    }

    @Test
    void swimFacebookSamples() throws Exception {
        var stats = new TraceReader.ReadStats[1];
        assertThat(read(new SwimReader(SwimReader.Conversion.DEFAULT),
                sample("swim/FB-2009_samples_24_times_1hr_0.tsv"), stats)).hasSize(5_894);
        assertThat(read(new SwimReader(SwimReader.Conversion.DEFAULT),
                sample("swim/FB-2010_samples_24_times_1hr_0.tsv"), stats)).hasSize(24_442);
    }
}
