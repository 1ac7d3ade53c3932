package io.fairledger.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The arrows between the server's packages (docs/architecture.md): each top-level package of {@code io.fairledger}
 * with its sub-packages is one slice, and no two slices depend on each other both ways, however indirectly. HTTP stays
 * at the edge: only the REST adapters and routes use {@code web}, and the command line calls services, never REST
 * classes.
 */
class ShellArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.fairledger");

    @Test
    void topLevelPackagesAreFreeOfCycles() {
        slices().matching("io.fairledger.(*)..").should().beFreeOfCycles()
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
    void theCommandLineUsesServicesNotRestClasses() {
        noClasses().that().resideInAPackage("io.fairledger.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fairledger..rest..", "io.fairledger.web..")
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
}
