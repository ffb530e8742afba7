package io.agentgateway.architecturetests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * The admin API's application services ({@code @Service} in {@code io.agentgateway.adminapi}): what its handlers and the
 * console both act and read through. Each answers one shape, a {@code Mono} of its value whose error is the refusal
 * ({@code ApiException}: status, text and field) or the gateway's own failure, so that a handler maps it to HTTP and a
 * console page to a page the same way everywhere; a service knows no handler (its texts and limits are its own), and
 * sits in the package of its resource.
 */
@AnalyzeClasses(locations = ModuleClasses.class)
class AdminServicesTest {
    static final String ADMIN_API = "io.agentgateway.adminapi..";

    @ArchTest
    static final ArchRule servicesAnswerAMono = methods()
            .that().areDeclaredInClassesThat().areAnnotatedWith(Service.class)
            .and().areDeclaredInClassesThat().resideInAPackage(ADMIN_API)
            .and().arePublic().and().areNotStatic()
            .should().haveRawReturnType(Mono.class)
            .because("every admin service answers one shape: a Mono of its value, its refusal an ApiException");

    @ArchTest
    static final ArchRule servicesKnowNoHandler = noClasses()
            .that().areAnnotatedWith(Service.class).and().resideInAPackage(ADMIN_API)
            .should().dependOnClassesThat().haveSimpleNameEndingWith("Handler")
            .because("handlers map a service's answer to HTTP; a service takes nothing from them");

    @ArchTest
    static final ArchRule servicesSitWithTheirResource = classes()
            .that().areAnnotatedWith(Service.class).and().resideInAPackage(ADMIN_API)
            .should().resideOutsideOfPackages("io.agentgateway.adminapi", "io.agentgateway.adminapi.shared")
            .because("the admin API is split by resource: a service lives in its resource's package");
}
