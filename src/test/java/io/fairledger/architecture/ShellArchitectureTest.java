package io.fairledger.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.Entity;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The arrows between the server's packages, as docs/architecture.md ("Allowed arrows") draws them: each top-level
 * package of {@code io.fairledger} with its sub-packages, and the root package itself, uses only the packages its row
 * of {@link #ARROWS} names, and no two depend on each other both ways, however indirectly. HTTP stays at the edge:
 * only the REST adapters, {@code web} and the portal use JAX-RS or {@code web}, nothing but a REST adapter uses one,
 * and no JPA entity leaves the package that owns its table.
 */
class ShellArchitectureTest {

    private static final String ROOT = "io.fairledger";

    /**
     * Every other package may use these: the algorithms, the domain errors, the metric names and the typed settings.
     * They use no other package of the server.
     */
    private static final Set<String> EVERYWHERE = Set.of("core", "errors", "observability", "config");

    /**
     * The allowed arrows: a package (the root package is {@code ""}) to the packages it may use besides itself and
     * {@link #EVERYWHERE}. {@code web} is allowed to the REST adapters ({@code ..rest..}) of every package, and to
     * {@code web} and {@code portal} (see {@link #onlyHttpAdaptersUseWeb()}).
     */
    static final Map<String, Set<String>> ARROWS = Map.ofEntries(
            Map.entry("", Set.of("cli")),
            Map.entry("cli", Set.of("accounting", "live", "ingest", "facts", "tenancy", "simulation", "standalone",
                    "kafka")),
            Map.entry("portal", Set.of("live", "accounting", "admission", "tenancy", "audit", "security", "web",
                    "billing")),
            Map.entry("billing", Set.of("accounting", "tenancy", "security")),
            Map.entry("retention", Set.of("live", "accounting", "facts", "tenancy", "audit")),
            Map.entry("reports", Set.of("accounting", "tenancy", "security")),
            Map.entry("admission", Set.of("accounting", "tenancy", "ingest", "audit", "security", "kafka")),
            Map.entry("live", Set.of("accounting", "facts", "tenancy", "security")),
            Map.entry("accounting", Set.of("facts", "tenancy")),
            Map.entry("ingest", Set.of("facts", "tenancy", "kafka")),
            Map.entry("tenancy", Set.of("audit")),
            Map.entry("audit", Set.of("security")),
            Map.entry("security", Set.of()),
            Map.entry("web", Set.of()),
            Map.entry("facts", Set.of()),
            Map.entry("simulation", Set.of()),
            Map.entry("standalone", Set.of()),
            Map.entry("kafka", Set.of()),
            Map.entry("core", Set.of()),
            Map.entry("errors", Set.of()),
            Map.entry("observability", Set.of()),
            Map.entry("config", Set.of()));

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);

    @Test
    void eachPackageUsesOnlyThePackagesItsRowAllows() {
        classes().that().resideInAPackage(ROOT + "..").should(useOnlyAllowedPackages())
                .because("docs/architecture.md lists every arrow between the packages; a new one is decided there")
                .check(MAIN);
    }

    @Test
    void everyPackageHasARow() {
        classes().that().resideInAPackage(ROOT + "..").should(haveARow()).check(MAIN);
    }

    @Test
    void packagesAreFreeOfCyclesIncludingTheRoot() {
        slices().assignedFrom(TOP_LEVEL).should().beFreeOfCycles()
                .because("a package's owner must be able to change it without reading the packages that use it")
                .check(MAIN);
    }

    @Test
    void onlyHttpAdaptersUseWeb() {
        noClasses().that()
                .resideOutsideOfPackages("io.fairledger.web..", "io.fairledger..rest..", "io.fairledger.portal..")
                .should().dependOnClassesThat().resideInAPackage("io.fairledger.web..")
                .because("services, the consumer and the ledgers throw domain errors; web alone maps them to HTTP")
                .check(MAIN);
    }

    @Test
    void onlyHttpAdaptersUseJaxRs() {
        noClasses().that()
                .resideOutsideOfPackages("io.fairledger.web..", "io.fairledger..rest..", "io.fairledger.portal..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "org.jboss.resteasy..")
                .because("HTTP is the edge: services are called the same way by REST, the portal, Kafka and the CLI")
                .check(MAIN);
    }

    @Test
    void restClassesAreUsedOnlyByRestClasses() {
        noClasses().that().resideOutsideOfPackage("io.fairledger..rest..")
                .should().dependOnClassesThat().resideInAPackage("io.fairledger..rest..")
                .because("the portal and the command line call the services, which check what the REST resources "
                        + "would, so no check lives in a resource alone")
                .check(MAIN);
    }

    @Test
    void entitiesStayInThePackageThatOwnsTheirTable() {
        classes().that().areAnnotatedWith(Entity.class).should(beUsedOnlyInTheirOwnPackage())
                .because("other packages get immutable views (tenancy.RegisteredCluster, ClusterView, TenantView, "
                        + "AuditTrail.Change): an entity is mutable and writes itself back")
                .check(MAIN);
    }

    @Test
    void coreUsesNoOtherPackageOfTheServer() {
        noClasses().that().resideInAPackage("io.fairledger.core..")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.fairledger.core..", "java..",
                        "org.ojalgo..")
                .because("the core is plain Java, shared by the server, the offline commands and the simulator")
                .check(MAIN);
    }

    /** The top-level package of a class of the server: {@code ""} for the root package, null outside the server. */
    static String topLevel(JavaClass c) {
        String name = c.getPackageName();
        if (name.equals(ROOT)) {
            return "";
        }
        if (!name.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = name.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static boolean isRestAdapter(JavaClass c) {
        return List.of(c.getPackageName().split("\\.")).contains("rest");
    }

    private static boolean allowed(JavaClass origin, JavaClass target) {
        String from = topLevel(origin);
        String to = topLevel(target);
        if (to == null || to.equals(from)) {
            return true;
        }
        // the packages everybody uses use no other package: a use of theirs would be a cycle in waiting
        if (EVERYWHERE.contains(to) && !EVERYWHERE.contains(from)) {
            return true;
        }
        if (to.equals("web") && isRestAdapter(origin)) {
            return true;
        }
        return ARROWS.getOrDefault(from, Set.of()).contains(to);
    }

    private static ArchCondition<JavaClass> useOnlyAllowedPackages() {
        return new ArchCondition<>("use only the packages their package's row of allowed arrows names") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    if (!allowed(c, d.getTargetClass())) {
                        events.add(SimpleConditionEvent.violated(d, arrow(c, d.getTargetClass()) + " is not an "
                                + "allowed arrow: " + d.getDescription()));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> haveARow() {
        return new ArchCondition<>("belong to a package with a row in the allowed arrows") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                if (!ARROWS.containsKey(topLevel(c))) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + " is in package '" + topLevel(c)
                            + "', which has no row in the allowed arrows"));
                }
            }
        };
    }

    private static ArchCondition<JavaClass> beUsedOnlyInTheirOwnPackage() {
        return new ArchCondition<>("be used only in the top-level package that owns them") {
            @Override
            public void check(JavaClass entity, ConditionEvents events) {
                for (Dependency d : entity.getDirectDependenciesToSelf()) {
                    JavaClass user = d.getOriginClass();
                    if (!topLevel(entity).equals(topLevel(user))) {
                        events.add(SimpleConditionEvent.violated(d, "entity " + entity.getName() + " is used by "
                                + user.getName() + ": " + d.getDescription()));
                    }
                }
            }
        };
    }

    private static String arrow(JavaClass from, JavaClass to) {
        return name(topLevel(from)) + " -> " + name(topLevel(to));
    }

    private static String name(String topLevel) {
        return topLevel.isEmpty() ? "(root)" : topLevel;
    }

    /** One slice per top-level package, and one for the root package, which the pattern {@code (*)..} leaves out. */
    private static final SliceAssignment TOP_LEVEL = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String top = topLevel(c);
            return top == null ? SliceIdentifier.ignore() : SliceIdentifier.of(name(top));
        }

        @Override
        public String getDescription() {
            return "the top-level packages of io.fairledger and the root package";
        }
    };
}
