package io.fairledger.it;

import static io.restassured.RestAssured.given;

/** Access tokens from the real Keycloak, for the users and clients of src/main/keycloak/fairledger-realm.json. */
final class Tokens {

    private final String realmUrl;

    Tokens(String realmUrl) {
        this.realmUrl = realmUrl;
    }

    /** A person's token (resource-owner password grant through {@code clientId}). */
    String user(String clientId, String username) {
        return given().formParam("grant_type", "password").formParam("client_id", clientId)
                .formParam("username", username).formParam("password", username + "-password")
                .post(realmUrl + "/protocol/openid-connect/token")
                .then().statusCode(200).extract().path("access_token");
    }

    String user(String username) {
        return user("fairledger-cli", username);
    }

    /**
     * A token of {@code username} that has expired: issued by the realm's {@code fairledger-cli-expiring} client
     * (2-second lifespan), returned once its {@code exp} has passed.
     */
    String expired(String username) throws InterruptedException {
        String token = user("fairledger-cli-expiring", username);
        Thread.sleep(3_500);
        return token;
    }

    /** The resource-manager client's own token (client-credentials grant). */
    String resourceManager() {
        return given().formParam("grant_type", "client_credentials").formParam("client_id", "resource-manager")
                .formParam("client_secret", "change-me-resource-manager")
                .post(realmUrl + "/protocol/openid-connect/token")
                .then().statusCode(200).extract().path("access_token");
    }
}
