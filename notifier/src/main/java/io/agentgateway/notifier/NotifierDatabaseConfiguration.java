package io.agentgateway.notifier;

import io.agentgateway.notifier.ledger.DeliveryLedger;
import io.agentgateway.notifier.ledger.LedgerSchema;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationInitializer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The delivery ledger and the notifier's own Flyway ({@link LedgerSchema}). Defining the
 * {@link Flyway} bean here makes Boot's Flyway auto-configuration (and with it every
 * {@code spring.flyway.*} key) step back, so the projector's migrations in {@code public} and ours
 * never meet, whatever the shared configuration says.
 */
@Configuration(proxyBeanMethods = false)
class NotifierDatabaseConfiguration {

    @Bean
    Flyway notifierFlyway(DataSource dataSource) {
        return LedgerSchema.flyway(dataSource);
    }

    /** Runs the migration before any bean that uses the database (Boot's initializer detection orders them). */
    @Bean
    FlywayMigrationInitializer notifierFlywayInitializer(Flyway notifierFlyway) {
        return new FlywayMigrationInitializer(notifierFlyway);
    }

    @Bean
    @DependsOnDatabaseInitialization
    DeliveryLedger deliveryLedger(DataSource dataSource) {
        return new DeliveryLedger(JdbcClient.create(dataSource));
    }
}
