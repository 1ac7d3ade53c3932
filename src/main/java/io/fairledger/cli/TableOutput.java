package io.fairledger.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import picocli.CommandLine.Option;

/**
 * How a reporting command prints rows: an aligned table for people (default), {@code --parsable} for scripts (one
 * line per row, fields separated by {@code |}, a header first, as {@code sshare -P} and {@code sreport -P} do), or
 * {@code --json}, the server's answer as it came. A picocli mixin, so every such command has the same three forms.
 */
public final class TableOutput {

    private static final Pattern NUMBER = Pattern.compile("-?[0-9][0-9.,E-]*");

    @Option(names = "--json", description = "Print the server's JSON answer.")
    boolean json;

    @Option(names = "--parsable", description = "Fields separated by '|', one row per line, header first.")
    boolean parsable;

    /** True when the JSON answer is to be printed as it came. */
    public boolean json() {
        return json;
    }

    /** Prints {@code header} and {@code rows} as a table, or '|'-separated with {@code --parsable}. */
    public void print(PrintWriter out, List<String> header, List<List<String>> rows) {
        if (parsable) {
            out.println(String.join("|", header));
            rows.forEach(r -> out.println(String.join("|", r)));
            return;
        }
        int[] widths = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> r : all) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], r.get(i).length());
            }
        }
        for (List<String> r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length; i++) {
                String cell = r.get(i);
                line.append(i == 0 ? "" : "  ");
                line.append(pad(cell, widths[i], r != header && NUMBER.matcher(cell).matches()));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String pad(String cell, int width, boolean right) {
        String fill = " ".repeat(width - cell.length());
        return right ? fill + cell : cell + fill;
    }
}
