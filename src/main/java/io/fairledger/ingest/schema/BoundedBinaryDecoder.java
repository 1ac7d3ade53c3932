package io.fairledger.ingest.schema;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * An Avro binary decoder over a byte array that refuses lengths and item counts larger than the array itself. Avro's
 * own decoder allocates whatever a (possibly corrupt) length prefix says, up to 2 GB, before noticing the input is too
 * short; here a corrupt prefix fails at once and costs nothing.
 */
final class BoundedBinaryDecoder extends Decoder {

    private final BinaryDecoder in;
    private final long limit;

    BoundedBinaryDecoder(byte[] bytes, int offset, int length) {
        this.in = DecoderFactory.get().binaryDecoder(bytes, offset, length, null);
        this.limit = length;
    }

    /** Whether every byte has been read. */
    boolean isEnd() throws IOException {
        return in.isEnd();
    }

    @Override
    public void readNull() throws IOException {
        in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
        return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        return new Utf8(validUtf8(readLengthPrefixed("string")));
    }

    @Override
    public String readString() throws IOException {
        return new Utf8(validUtf8(readLengthPrefixed("string"))).toString();
    }

    /**
     * Refuses bytes that are not UTF-8 (an encoded lone surrogate among them): decoding would put U+FFFD in their place,
     * and two distinct ids would become one.
     */
    private static byte[] validUtf8(byte[] bytes) throws IOException {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return bytes;
        } catch (CharacterCodingException e) {
            throw new IOException("a string is not valid UTF-8 (" + e + ")", e);
        }
    }

    @Override
    public void skipString() throws IOException {
        in.skipFixed(checkedLength(in.readLong(), "string"));
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        return ByteBuffer.wrap(readLengthPrefixed("bytes"));
    }

    @Override
    public void skipBytes() throws IOException {
        in.skipFixed(checkedLength(in.readLong(), "bytes"));
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        in.readFixed(bytes, start, checkedLength(length, "fixed"));
    }

    @Override
    public void skipFixed(int length) throws IOException {
        in.skipFixed(checkedLength(length, "fixed"));
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public long readArrayStart() throws IOException {
        return checkedCount(in.readArrayStart());
    }

    @Override
    public long arrayNext() throws IOException {
        return checkedCount(in.arrayNext());
    }

    @Override
    public long skipArray() throws IOException {
        return checkedCount(in.skipArray());
    }

    @Override
    public long readMapStart() throws IOException {
        return checkedCount(in.readMapStart());
    }

    @Override
    public long mapNext() throws IOException {
        return checkedCount(in.mapNext());
    }

    @Override
    public long skipMap() throws IOException {
        return checkedCount(in.skipMap());
    }

    @Override
    public int readIndex() throws IOException {
        return in.readIndex();
    }

    private byte[] readLengthPrefixed(String what) throws IOException {
        byte[] bytes = new byte[checkedLength(in.readLong(), what)];
        in.readFixed(bytes, 0, bytes.length);
        return bytes;
    }

    private int checkedLength(long length, String what) {
        if (length < 0 || length > limit) {
            throw new AvroRuntimeException(
                    what + " length " + length + " is impossible in a " + limit + "-byte value (corrupt data)");
        }
        return (int) length;
    }

    private long checkedCount(long count) {
        if (count < 0 || count > limit) {
            throw new AvroRuntimeException(
                    "collection of " + count + " items is impossible in a " + limit + "-byte value (corrupt data)");
        }
        return count;
    }
}
