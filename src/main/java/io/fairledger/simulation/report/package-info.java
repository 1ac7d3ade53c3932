/** The simulation matrix's summaries as one CSV, bar charts (XChart) and a self-contained HTML report. */
package io.fairledger.simulation.report;
