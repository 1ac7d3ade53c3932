package io.fairledger.billing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * An {@link Invoice} as an A4 PDF, drawn with Apache PDFBox in the standard Helvetica fonts (no font file to ship):
 * a heading with the tenant, period and issuer, a table of the resource lines, the corrections of earlier periods
 * with the period each corrects, the total in the currency, and the closed statement's chain hash ("not chained"
 * when it has none). A long invoice goes on over further pages. Characters Helvetica cannot draw (outside
 * WinAnsiEncoding) are printed as {@code ?}.
 */
public final class InvoicePdf {

    private static final PDType1Font REGULAR = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
    private static final PDType1Font BOLD = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
    private static final PDType1Font MONO = new PDType1Font(Standard14Fonts.FontName.COURIER);
    private static final float MARGIN = 50;
    private static final float LEADING = 15;
    /** The left edges of the line table's columns. */
    private static final float[] COLUMNS = {MARGIN, 160, 250, 330, 410, 480};

    private InvoicePdf() {
    }

    /** The PDF's bytes. */
    public static byte[] write(Invoice invoice) {
        try (PDDocument document = new PDDocument()) {
            try (Writer w = new Writer(document)) {
                w.text(BOLD, 18, MARGIN, "Invoice " + invoice.id());
                w.next(6);
                w.text(REGULAR, 11, MARGIN, "Issued by " + invoice.issuer() + " for cluster " + invoice.cluster());
                w.text(REGULAR, 11, MARGIN, "Tenant: " + invoice.tenant());
                w.text(REGULAR, 11, MARGIN, "Period: " + invoice.period() + " (" + invoice.start() + " to "
                        + invoice.end() + ")");
                w.text(REGULAR, 11, MARGIN, "Currency: " + invoice.currency() + ", amounts with " + invoice.scale()
                        + " decimals");
                w.next(8);
                w.row(BOLD, "Resource", "Quantity", "Unit", "Unit price", "At price", "Amount");
                for (Invoice.Line l : invoice.lines()) {
                    w.row(REGULAR, l.resource(), plain(l.quantity()), l.unit(), plain(l.unitPrice()),
                            plain(l.listAmount()), plain(l.amount()));
                }
                w.text(REGULAR, 9, MARGIN, "At price: quantity x unit price of plan "
                        + (invoice.lines().isEmpty() ? "-" : invoice.lines().get(0).plan())
                        + "; Amount: what is billed, less the discount on usage borrowed beyond the tenant's share.");
                if (!invoice.corrections().isEmpty()) {
                    w.next(8);
                    w.text(BOLD, 12, MARGIN, "Corrections of earlier periods");
                    for (Invoice.Correction c : invoice.corrections()) {
                        w.text(REGULAR, 10, MARGIN, "Corrects period " + c.correctedPeriod() + " (" + c.correctedStart()
                                + " to " + c.correctedEnd() + "): " + plain(c.amount()) + " " + invoice.currency());
                        w.text(REGULAR, 9, MARGIN + 12, c.reason());
                    }
                }
                w.next(8);
                w.text(BOLD, 13, MARGIN, "Total: " + plain(invoice.total()) + " " + invoice.currency());
                w.next(8);
                w.text(REGULAR, 9, MARGIN, "Closed statement chain hash:");
                if (invoice.chainHash() == null) {
                    w.text(REGULAR, 9, MARGIN, "not chained");
                } else {
                    w.text(MONO, 8, MARGIN, invoice.chainHash());
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the PDF of invoice " + invoice.id(), e);
        }
    }

    private static String plain(BigDecimal value) {
        return value.toPlainString();
    }

    /** Writes lines top down, starting a new page when one is full. */
    private static final class Writer implements AutoCloseable {
        private final PDDocument document;
        private PDPageContentStream content;
        private float y;

        Writer(PDDocument document) throws IOException {
            this.document = document;
            newPage();
        }

        void text(PDType1Font font, float size, float x, String text) throws IOException {
            for (String part : wrap(font, size, x, drawable(font, text))) {
                room(size);
                content.beginText();
                content.setFont(font, size);
                content.newLineAtOffset(x, y);
                content.showText(part);
                content.endText();
                y -= Math.max(LEADING, size + 4);
            }
        }

        void row(PDType1Font font, String... cells) throws IOException {
            room(10);
            for (int i = 0; i < cells.length; i++) {
                content.beginText();
                content.setFont(font, 10);
                content.newLineAtOffset(COLUMNS[i], y);
                content.showText(drawable(font, cells[i]));
                content.endText();
            }
            y -= LEADING;
        }

        void next(float gap) {
            y -= gap;
        }

        private void room(float size) throws IOException {
            if (y - size < MARGIN) {
                newPage();
            }
        }

        private void newPage() throws IOException {
            if (content != null) {
                content.close();
            }
            PDPage page = new PDPage(PDRectangle.A4);
            document.addPage(page);
            content = new PDPageContentStream(document, page);
            y = page.getMediaBox().getHeight() - MARGIN;
        }

        /** {@code text} in pieces that fit between {@code x} and the right margin. */
        private static List<String> wrap(PDType1Font font, float size, float x, String text) throws IOException {
            float width = PDRectangle.A4.getWidth() - MARGIN - x;
            List<String> out = new ArrayList<>();
            String rest = text;
            while (font.getStringWidth(rest) / 1000 * size > width) {
                int cut = rest.length() - 1;
                while (cut > 1 && font.getStringWidth(rest.substring(0, cut)) / 1000 * size > width) {
                    cut--;
                }
                int space = rest.lastIndexOf(' ', cut);
                int at = space > 0 ? space : cut;
                out.add(rest.substring(0, at));
                rest = rest.substring(at).stripLeading();
            }
            out.add(rest);
            return out;
        }

        /** {@code text} with every character the font cannot encode replaced by {@code ?}. */
        private static String drawable(PDType1Font font, String text) {
            StringBuilder out = new StringBuilder();
            text.codePoints().forEach(cp -> {
                String c = new String(Character.toChars(cp));
                try {
                    font.encode(c);
                    out.append(c);
                } catch (IllegalArgumentException | IOException notInTheFont) {
                    out.append('?');
                }
            });
            return out.toString();
        }

        @Override
        public void close() throws IOException {
            content.close();
        }
    }
}
