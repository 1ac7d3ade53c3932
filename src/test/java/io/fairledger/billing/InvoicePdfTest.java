package io.fairledger.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.File;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.ChargeModel;

/**
 * An invoice's PDF holds, as extractable text, the tenant, the period, each line, the correction with the period it
 * corrects, the total and the chain hash; it renders to an image with ink on it (written to
 * {@code target/invoice-test.png} to look at). Amounts carry the currency's scale: JPY none, EUR cents.
 */
class InvoicePdfTest {

    @Test
    void thePdfHoldsTheInvoiceAndRenders() throws Exception {
        Invoice invoice = invoice("EUR", "ab12cd");
        assertThat(invoice.total()).isEqualByComparingTo("8.51");
        assertThat(invoice.total().scale()).isEqualTo(2);
        byte[] pdf = InvoicePdf.write(invoice);
        try (PDDocument document = Loader.loadPDF(pdf)) {
            String text = new PDFTextStripper().getText(document);
            assertThat(text).contains("root.a.x", "p1", "Total: 8.51 EUR", "ab12cd", "Corrects period p0", "-1.50");
            for (Invoice.Line l : invoice.lines()) {
                assertThat(text).contains(l.resource() + " " + l.quantity().toPlainString() + " " + l.unit() + " "
                        + l.unitPrice().toPlainString() + " " + l.listAmount().toPlainString() + " "
                        + l.amount().toPlainString());
            }
            BufferedImage image = new PDFRenderer(document).renderImageWithDPI(0, 100);
            File png = new File("target/invoice-test.png");
            ImageIO.write(image, "png", png);
            assertThat(inked(image)).as("dark pixels on the page").isGreaterThan(1000);
        }
    }

    @Test
    void withoutAChainTheInvoiceSaysSo() throws Exception {
        try (PDDocument document = Loader.loadPDF(InvoicePdf.write(invoice("EUR", null)))) {
            assertThat(new PDFTextStripper().getText(document)).contains("not chained");
        }
    }

    @Test
    void amountsHaveTheCurrencysScaleOrTheClustersWhenLarger() {
        assertThat(invoice("EUR", null).scale()).isEqualTo(2);
        Invoice yen = Invoice.of("Shared cluster", "c", "root.a.x", "p1", ChargeRowsTest.P1, ChargeRowsTest.P2,
                "JPY", 0, List.of(), null);
        assertThat(yen.scale()).isZero();
        assertThat(yen.total()).isEqualByComparingTo(BigDecimal.ZERO);
        Invoice fine = Invoice.of("Shared cluster", "c", "root.a.x", "p1", ChargeRowsTest.P1, ChargeRowsTest.P2,
                "USD", 4, List.of(), null);
        assertThat(fine.total().scale()).isEqualTo(4);
    }

    private static Invoice invoice(String currency, String chainHash) {
        StatementView first = ChargeRowsTest.statement("p0", ChargeRowsTest.P0, ChargeRowsTest.P1, "USAGE",
                List.of());
        StatementView second = ChargeRowsTest.statement("p1", ChargeRowsTest.P1, ChargeRowsTest.P2, "USAGE",
                List.of(ChargeRowsTest.line("root.a.x", "10.01", List.of(new StatementView.Adjustment("p0",
                        new BigDecimal("-1.50"), "late facts for period p0")))));
        List<ChargeRow> rows = ChargeRows.of(second, ChargeRowsTest.settings(1, ChargeModel.USAGE),
                Map.of("p0", first, "p1", second), t -> true);
        return Invoice.of("Shared cluster", "c", "root.a.x", "p1", second.start(), second.end(), currency, 2, rows,
                chainHash);
    }

    private static int inked(BufferedImage image) {
        int dark = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xff) < 128) {
                    dark++;
                }
            }
        }
        return dark;
    }
}
