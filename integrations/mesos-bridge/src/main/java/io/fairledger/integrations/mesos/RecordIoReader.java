package io.fairledger.integrations.mesos;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the RecordIO framing of Mesos's streaming HTTP APIs: each record is its length in bytes as ASCII decimal, a
 * line feed, then that many bytes (here one JSON event).
 */
final class RecordIoReader {

    /** Far above any real event or SUBSCRIBED snapshot; a larger length means the stream is corrupt. */
    static final int MAX_RECORD = 256 << 20;

    private final InputStream in;

    RecordIoReader(InputStream in) {
        this.in = in;
    }

    /** The next record, or null at a clean end of stream; EOFException when the stream ends inside a record. */
    byte[] next() throws IOException {
        long length = 0;
        int digits = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (digits == 0) {
                    return null;
                }
                throw new EOFException("stream ended inside a RecordIO length");
            }
            if (b == '\n') {
                break;
            }
            if (b < '0' || b > '9' || ++digits > 10) {
                throw new IOException("not a RecordIO length: byte " + b + " after " + digits + " digits");
            }
            length = length * 10 + (b - '0');
        }
        if (digits == 0 || length > MAX_RECORD) {
            throw new IOException("bad RecordIO length " + length);
        }
        byte[] record = in.readNBytes((int) length);
        if (record.length < length) {
            throw new EOFException("stream ended inside a record (" + record.length + " of " + length + " bytes)");
        }
        return record;
    }
}
