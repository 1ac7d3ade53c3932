package io.fairledger.simulation.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** One self-contained HTML page: headings, paragraphs, tables and PNG figures inlined as data URIs. */
public final class HtmlReport {

    private final String title;
    private final List<String> body = new ArrayList<>();

    public HtmlReport(String title) {
        this.title = title;
    }

    public HtmlReport heading(String text) {
        body.add("<h2>" + escape(text) + "</h2>");
        return this;
    }

    public HtmlReport paragraph(String text) {
        body.add("<p>" + escape(text) + "</p>");
        return this;
    }

    /** A table; the first row is the header. */
    public HtmlReport table(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder("<table>");
        for (int i = 0; i < rows.size(); i++) {
            String cell = i == 0 ? "th" : "td";
            sb.append("<tr>");
            for (String v : rows.get(i)) {
                sb.append('<').append(cell).append('>').append(escape(v)).append("</").append(cell).append('>');
            }
            sb.append("</tr>");
        }
        body.add(sb.append("</table>").toString());
        return this;
    }

    public HtmlReport figure(String caption, byte[] png) {
        body.add("<figure><img alt=\"" + escape(caption) + "\" src=\"data:image/png;base64,"
                + Base64.getEncoder().encodeToString(png) + "\"><figcaption>" + escape(caption)
                + "</figcaption></figure>");
        return this;
    }

    public void write(Path file) throws IOException {
        String html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
                + "</title><style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
                + "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px;"
                + "text-align:right}img{max-width:100%}</style></head><body><h1>" + escape(title) + "</h1>\n"
                + String.join("\n", body) + "\n</body></html>\n";
        Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
