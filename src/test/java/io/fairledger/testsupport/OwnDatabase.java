package io.fairledger.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.Flyway;

/**
 * A database of a test's own on the tests' PostgreSQL (the server's datasource), made afresh: for a test that migrates
 * or reshapes the schema without touching the server's database.
 */
public final class OwnDatabase {

    private final String url;
    private final String user;
    private final String password;

    private OwnDatabase(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** Drops {@code name} if it exists and creates it empty, next to the server's database. */
    public static OwnDatabase create(String name) throws SQLException {
        Config config = ConfigProvider.getConfig();
        String serverUrl = config.getValue("quarkus.datasource.jdbc.url", String.class);
        String user = config.getValue("quarkus.datasource.username", String.class);
        // empty for the embedded PostgreSQL, which trusts local connections
        String password = config.getOptionalValue("quarkus.datasource.password", String.class).orElse("");
        try (Connection c = DriverManager.getConnection(serverUrl, user, password);
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
            st.execute("CREATE DATABASE " + name);
        }
        return new OwnDatabase(serverUrl.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1"), user, password);
    }

    /** Flyway over this database and the server's migrations, up to {@code target} ("latest" for all). */
    public Flyway flyway(String target) {
        return Flyway.configure().dataSource(url, user, password).locations("classpath:db/migration").target(target)
                .load();
    }

    /** A new connection to this database. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }
}
