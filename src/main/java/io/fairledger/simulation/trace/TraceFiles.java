package io.fairledger.simulation.trace;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Opening trace files: gzip is recognised by its magic bytes, whatever the file name. */
final class TraceFiles {

    private TraceFiles() {
    }

    static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        if (b1 == 0x1f && b2 == 0x8b) {
            return new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
        }
        return in;
    }

    static BufferedReader lines(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(open(file), StandardCharsets.UTF_8), 1 << 16);
    }

    /** Splits a CSV line without quoting (the Google and Alibaba traces quote nothing); keeps empty fields. */
    static String[] csv(String line) {
        return line.split(",", -1);
    }

    static double number(Path file, long line, String[] fields, int index, String name) throws TraceFormatException {
        if (index >= fields.length || fields[index].isBlank()) {
            throw new TraceFormatException(file, line, "column " + (index + 1) + " (" + name + ") is missing");
        }
        try {
            double v = Double.parseDouble(fields[index].strip());
            if (!Double.isFinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line,
                    "column " + (index + 1) + " (" + name + ") must be a number, got '" + fields[index] + "'");
        }
    }

    static long integer(Path file, long line, String[] fields, int index, String name) throws TraceFormatException {
        if (index >= fields.length || fields[index].isBlank()) {
            throw new TraceFormatException(file, line, "column " + (index + 1) + " (" + name + ") is missing");
        }
        try {
            return Long.parseLong(fields[index].strip());
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line,
                    "column " + (index + 1) + " (" + name + ") must be an integer, got '" + fields[index] + "'");
        }
    }
}
