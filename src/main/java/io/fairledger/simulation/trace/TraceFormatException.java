package io.fairledger.simulation.trace;

import java.nio.file.Path;

/** Malformed trace input; the message names the file and the line (1-based). */
public final class TraceFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public TraceFormatException(Path file, long line, String message) {
        super(file + " line " + line + ": " + message);
    }

    public TraceFormatException(Path file, String message) {
        super(file + ": " + message);
    }
}
