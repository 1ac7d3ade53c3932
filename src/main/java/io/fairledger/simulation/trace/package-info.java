/**
 * Streaming readers of job traces (Google 2011, Alibaba 2017, SWF, SWIM, Hadoop SLS and Rumen, the project's JSON
 * Lines) into admission requests.
 */
package io.fairledger.simulation.trace;
