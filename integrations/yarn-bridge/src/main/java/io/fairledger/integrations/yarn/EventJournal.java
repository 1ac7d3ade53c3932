package io.fairledger.integrations.yarn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The bridge's outbox: every event is appended here, in the scheduler's own thread, before the scheduler goes on, and
 * a {@link JournalShipper} sends it to Kafka later. So a Kafka outage or a shipper restart delays events but loses
 * none: the journal is on the ResourceManager's disk and the shipper resumes from its checkpoint. One line per event,
 * {@code topic TAB key TAB json}, in numbered segment files ({@code 000000000001.journal}) of bounded size.
 */
public final class EventJournal implements AutoCloseable {

    static final String SUFFIX = ".journal";

    private final Path dir;
    private final long segmentBytes;
    private final boolean fsync;
    private long segment;
    private FileChannel channel;

    /**
     * @param segmentBytes a new segment starts once the current one is this large
     * @param fsync        force every append to the device (survives a power loss, not only a process crash)
     */
    public EventJournal(Path dir, long segmentBytes, boolean fsync) {
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        this.fsync = fsync;
        try {
            Files.createDirectories(dir);
            List<Long> existing = segments(dir);
            segment = existing.isEmpty() ? 1 : existing.get(existing.size() - 1);
            channel = open(segment);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the fairledger event journal in " + dir, e);
        }
    }

    /** Appends one event; returns once the operating system has it (and the device, with fsync). */
    public synchronized void append(String topic, String key, String json) {
        if (topic.indexOf('\t') >= 0 || key.indexOf('\t') >= 0 || json.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("tab in topic or key, or newline in the event: " + json);
        }
        byte[] line = (topic + '\t' + key + '\t' + json + '\n').getBytes(StandardCharsets.UTF_8);
        try {
            if (channel.size() > 0 && channel.size() + line.length > segmentBytes) {
                channel.close();
                segment++;
                channel = open(segment);
            }
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            if (fsync) {
                channel.force(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the fairledger event journal in " + dir, e);
        }
    }

    /** The segment being written: the shipper never deletes it. */
    public synchronized long currentSegment() {
        return segment;
    }

    public Path dir() {
        return dir;
    }

    @Override
    public synchronized void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path segmentFile(Path dir, long segment) {
        return dir.resolve(String.format("%012d%s", segment, SUFFIX));
    }

    /** The segment numbers in the directory, ascending. */
    static List<Long> segments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(SUFFIX))
                    .map(n -> Long.parseLong(n.substring(0, n.length() - SUFFIX.length()))).sorted().toList();
        }
    }

    private FileChannel open(long number) throws IOException {
        return FileChannel.open(segmentFile(dir, number), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }
}
