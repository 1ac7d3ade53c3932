package io.fairledger.portal;

import java.net.URI;
import java.net.URISyntaxException;

import io.fairledger.errors.AccessDenied;

/**
 * Refuses a form posted from another site. A plain HTML form needs no CORS preflight, so without this check any page
 * open in the admin's browser could post a weight change: with single sign-on the session cookie is
 * {@code SameSite=Lax} and is not sent along, but in standalone mode every loopback caller is the admin, cookie or
 * not. Browsers send {@code Origin} with every POST; it must name the host the form was posted to. A caller that
 * sends no {@code Origin} is not a browser page, so not a forged request.
 */
final class SameOrigin {

    private SameOrigin() {
    }

    static void require(String origin, String host) {
        if (origin == null) {
            return;
        }
        String from;
        try {
            URI uri = new URI(origin.strip());
            from = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        } catch (URISyntaxException e) {
            from = null;
        }
        if (from == null || host == null || !from.equalsIgnoreCase(host.strip())) {
            throw new AccessDenied("this form was posted from " + origin + ", not from this portal: changes are only "
                    + "taken from the portal's own pages");
        }
    }
}
