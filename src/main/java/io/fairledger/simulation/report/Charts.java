package io.fairledger.simulation.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.fairledger.core.jobsim.Summary;
import io.fairledger.simulation.RunSummary;

/**
 * The papers' figures drawn with XChart (PNG, and SVG through VectorGraphics2D): one grouped bar chart per metric and
 * capacity (x: deadline model, one bar per policy, as Justice (Dimopoulos et al., 2019) Fig. 2 and Dimopoulos's
 * dissertation (2018) Fig. 5.x), and line charts over time (rho per tenant, Omega and Psi, as LTRF (Tang et al., 2014)
 * Fig. 5). Runs headless.
 */
public final class Charts {

    /** The six metrics of docs/domain.md section 9, as named in summaries. */
    public static final List<String> METRICS = List.of("SDR", "PTR", "WTR", "utilization", "fairness", "equality");

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    /** The value of {@code metric} in {@code s}. */
    public static double metric(Summary s, String metric) {
        ToDoubleFunction<Summary> f = switch (metric) {
            case "SDR" -> Summary::sdr;
            case "PTR" -> Summary::ptr;
            case "WTR" -> Summary::wtr;
            case "utilization" -> Summary::utilization;
            case "fairness" -> Summary::fairness;
            case "equality" -> Summary::equality;
            default -> throw new IllegalArgumentException("unknown metric " + metric);
        };
        return f.applyAsDouble(s);
    }

    /** Bars of {@code metric} at {@code capacity}: x the deadline models, one series per policy. */
    public static CategoryChart metricByDeadline(String title, String metric, int capacity, List<RunSummary> runs,
            List<String> deadlines, List<String> policies) {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(420).title(title)
                .xAxisTitle("deadline model").yAxisTitle(metric).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.0);
        chart.getStyler().setYAxisDecimalPattern("0.00");
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (String policy : policies) {
            List<Double> ys = new ArrayList<>();
            for (String d : deadlines) {
                ys.add(runs.stream()
                        .filter(r -> r.key().policy().equals(policy) && r.key().deadlines().equals(d)
                                && r.key().capacity() == capacity)
                        .mapToDouble(r -> metric(r.summary(), metric)).findFirst().orElse(0));
            }
            chart.addSeries(policy, deadlines, ys);
        }
        return chart;
    }

    /** Lines: series name to {x[], y[]}. */
    public static XYChart lines(String title, String xTitle, String yTitle, Map<String, double[][]> series) {
        XYChart chart = new XYChartBuilder().width(900).height(420).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            XYSeries s = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
            s.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    /** Writes {@code base.png} and {@code base.svg}; returns the PNG bytes (for the HTML report). */
    public static byte[] save(Chart<?, ?> chart, Path base) throws IOException {
        Files.createDirectories(base.toAbsolutePath().getParent());
        byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        Files.write(base.resolveSibling(base.getFileName() + ".png"), png);
        VectorGraphicsEncoder.saveVectorGraphic(chart, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        return png;
    }
}
