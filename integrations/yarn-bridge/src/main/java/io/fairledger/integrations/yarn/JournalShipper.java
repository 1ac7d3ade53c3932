package io.fairledger.integrations.yarn;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the journal to Kafka, at least once: a batch is sent, acknowledged by the brokers ({@code acks=all}), and only
 * then is the checkpoint ({@code shipped}: segment and byte offset) moved past it. A shipper that stops or crashes
 * between the two resends the batch when it starts again; the events carry the same ids, and fairledger deduplicates
 * them. Fully shipped segments are deleted.
 */
public final class JournalShipper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JournalShipper.class);
    private static final int BATCH = 500;
    private static final long IDLE_MILLIS = 200;

    private final EventJournal journal;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Thread thread;
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean running = true;
    private volatile boolean failing;

    public JournalShipper(EventJournal journal, Map<String, Object> kafka) {
        this.journal = journal;
        Properties props = new Properties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.putAll(kafka);
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        this.thread = new Thread(this::run, "fairledger-journal-shipper");
        thread.setDaemon(true);
    }

    public JournalShipper start() {
        thread.start();
        return this;
    }

    /** Records sent and acknowledged by this shipper since it started (resent ones count again). */
    public long sent() {
        return sent.get();
    }

    /** Stops after the batch in flight; the checkpoint says where the next shipper resumes. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close();
    }

    private void run() {
        while (running) {
            try {
                if (!shipOneBatch()) {
                    Thread.sleep(IDLE_MILLIS);
                }
                if (failing) {
                    LOG.info("fairledger journal shipper: Kafka reachable again, shipping resumed");
                    failing = false;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | IOException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    LOG.warn("fairledger journal shipper: cannot ship to Kafka, events stay in {} and are retried: {}",
                            journal.dir(), e.toString());
                    failing = true;
                }
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** Ships up to one batch; false when there was nothing to ship. */
    boolean shipOneBatch() throws IOException, InterruptedException {
        Checkpoint at = Checkpoint.read(journal.dir());
        List<Long> segments = EventJournal.segments(journal.dir());
        for (long segment : segments) {
            if (segment < at.segment()) {
                Files.deleteIfExists(EventJournal.segmentFile(journal.dir(), segment));
                continue;
            }
            long offset = segment == at.segment() ? at.offset() : 0;
            List<String> lines = new ArrayList<>();
            long end = readLines(EventJournal.segmentFile(journal.dir(), segment), offset, lines);
            if (!lines.isEmpty()) {
                send(lines);
                new Checkpoint(segment, end).write(journal.dir());
                return true;
            }
            if (segment < journal.currentSegment()) {
                new Checkpoint(segment + 1, 0).write(journal.dir());
                Files.deleteIfExists(EventJournal.segmentFile(journal.dir(), segment));
            }
        }
        return false;
    }

    private void send(List<String> lines) throws InterruptedException {
        List<Future<?>> acks = new ArrayList<>(lines.size());
        for (String line : lines) {
            int tab1 = line.indexOf('\t');
            int tab2 = line.indexOf('\t', tab1 + 1);
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(line.substring(0, tab1),
                    line.substring(tab1 + 1, tab2).getBytes(StandardCharsets.UTF_8),
                    line.substring(tab2 + 1).getBytes(StandardCharsets.UTF_8));
            record.headers().add(new RecordHeader("content-type",
                    "application/json".getBytes(StandardCharsets.UTF_8)));
            acks.add(producer.send(record));
        }
        producer.flush();
        for (Future<?> ack : acks) {
            try {
                ack.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("Kafka did not acknowledge an event", e.getCause());
            }
        }
        sent.addAndGet(lines.size());
    }

    /** Reads complete lines (up to a batch) from offset; returns the offset after the last one read. */
    private static long readLines(Path file, long offset, List<String> into) throws IOException {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (offset >= length) {
                return offset;
            }
            byte[] bytes = new byte[(int) Math.min(length - offset, 4L << 20)];
            in.seek(offset);
            in.readFully(bytes);
            int start = 0;
            for (int i = 0; i < bytes.length && into.size() < BATCH; i++) {
                if (bytes[i] == '\n') {
                    into.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            return offset + start;
        }
    }

    /** Where shipping resumes: the first byte not yet acknowledged by Kafka. */
    record Checkpoint(long segment, long offset) {

        static Checkpoint read(Path dir) throws IOException {
            Path file = dir.resolve("shipped");
            if (!Files.exists(file)) {
                List<Long> segments = EventJournal.segments(dir);
                return new Checkpoint(segments.isEmpty() ? 1 : segments.get(0), 0);
            }
            String[] parts = Files.readString(file).trim().split(" ");
            return new Checkpoint(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        }

        void write(Path dir) {
            try {
                Path tmp = dir.resolve("shipped.tmp");
                Files.writeString(tmp, segment + " " + offset + "\n");
                Files.move(tmp, dir.resolve("shipped"), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
