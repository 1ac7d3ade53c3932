package io.fairledger.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The algorithm core is plain Java: the server, the offline commands and the simulator all run it unchanged. */
class CoreIsFrameworkFreeTest {

    @Test
    void coreImportsNoFramework() {
        JavaClasses core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.fairledger.core");
        noClasses().that().resideInAPackage("io.fairledger.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "jakarta..", "javax.persistence..",
                        "org.hibernate..", "org.apache.kafka..", "io.micrometer..", "com.fasterxml..", "io.vertx..",
                        "io.smallrye..", "org.eclipse.microprofile..")
                .because("the core must run the same in the server, the offline commands and the simulator")
                .check(core);
    }

    @Test
    void coreDependsOnlyOnItselfTheJdkAndTheLpSolver() {
        JavaClasses core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.fairledger.core");
        classes().that().resideInAPackage("io.fairledger.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.fairledger.core..", "java..", "org.ojalgo..")
                .check(core);
    }
}
