package io.fairledger.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

import io.fairledger.config.FairledgerConfig;

/**
 * Standalone mode without an OIDC server: a caller connected over loopback is the local operator and acts as admin.
 * Only ever enabled by standalone mode, which then also refuses to bind anything but a loopback address. (OIDC is then
 * disabled.)
 */
@ApplicationScoped
public class LoopbackAdminMechanism implements HttpAuthenticationMechanism {

    /** The principal name loopback callers get, as it appears in logs and audit records. */
    public static final String LOCAL_ADMIN = "local-admin";

    @Inject
    FairledgerConfig config;

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        if (!config.security().trustLoopbackAsAdmin() || !isLoopback(context.request().remoteAddress())) {
            return Uni.createFrom().optional(java.util.Optional.empty());
        }
        return identityProviderManager.authenticate(new TrustedAuthenticationRequest(LOCAL_ADMIN));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TrustedAuthenticationRequest.class);
    }

    static boolean isLoopback(SocketAddress address) {
        if (address == null || address.hostAddress() == null) {
            return false;
        }
        try {
            return InetAddress.getByName(address.hostAddress()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
