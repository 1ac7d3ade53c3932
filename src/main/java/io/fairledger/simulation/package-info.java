/**
 * The simulator's I/O around the core: the policy x deadline model x capacity matrix run in parallel, its output files
 * and the command line's progress bar.
 */
package io.fairledger.simulation;
