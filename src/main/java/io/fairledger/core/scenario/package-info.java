/** LTRF's Table 1 step scenarios (Tang et al., 2014) run through the grant engine. */
package io.fairledger.core.scenario;
