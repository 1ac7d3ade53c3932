package io.fairledger.security;

/** The realm roles fairledger knows (Keycloak realm {@code fairledger}, see src/main/keycloak). */
public final class Roles {

    public static final String ADMIN = "admin";
    public static final String TENANT = "tenant";
    public static final String RESOURCE_MANAGER = "resource-manager";

    private Roles() {
    }
}
