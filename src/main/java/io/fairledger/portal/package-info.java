/**
 * The tenant and admin web portal: Qute pages built from the API's own views and services, with readable error pages
 * and a same-origin check on forms.
 */
package io.fairledger.portal;
