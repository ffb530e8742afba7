package io.agentgateway.notifier;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.notifier.channel.ChannelSender;
import io.agentgateway.notifier.channel.ChatWebhookSender;
import io.agentgateway.notifier.channel.EmailSender;
import io.agentgateway.notifier.channel.ReviewLinks;
import io.agentgateway.notifier.ledger.DeliveryLedger;
import io.agentgateway.schemas.secret.SecretBox;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import io.agentgateway.gatewaytracing.GatewayTracing;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mail.javamail.JavaMailSender;

/** The channels and the dispatcher that drives them. */
@Configuration(proxyBeanMethods = false)
class NotifierDeliveryConfiguration {

    @Bean
    SecretBox secretBox(SecretsProperties secrets) {
        try {
            return SecretBox.fromBase64Key(secrets.key());
        } catch (IllegalArgumentException e) {
            // the cause's message says what is wrong with the key without showing it
            throw new IllegalStateException(
                    "gateway.secrets.key must be set to base64 of 32 random bytes (openssl rand -base64 32): " + e.getMessage());
        }
    }

    @Bean
    ReviewLinks reviewLinks(NotifierProperties properties) {
        // a wrong address would send every reviewer to the wrong place: refuse to start instead
        return ReviewLinks.under(properties.publicBaseUrl());
    }

    @Bean
    EmailSender emailSender(ObjectProvider<JavaMailSender> mailSender, NotifierProperties properties, ReviewLinks reviewLinks) {
        JavaMailSender sender = mailSender.getIfAvailable(() -> {
            throw new IllegalStateException("spring.mail.host is not set: the notifier needs an SMTP server to send email");
        });
        return new EmailSender(sender, properties.mailFrom(), reviewLinks);
    }

    @Bean
    ChatWebhookSender chatWebhookSender(SecretBox secretBox, NotifierProperties properties, ReviewLinks reviewLinks,
                                        EgressClients egress) {
        return new ChatWebhookSender(secretBox, properties.chatConnectTimeout(), properties.chatRequestTimeout(), reviewLinks,
                egress);
    }

    @Bean
    DeliveryMetrics deliveryMetrics(MeterRegistry registry) {
        return new DeliveryMetrics(registry);
    }

    @Bean
    NotificationDispatcher notificationDispatcher(List<ChannelSender> senders, DeliveryLedger ledger, DeliveryMetrics metrics,
                                                  ObjectProvider<GatewayTracing> tracing) {
        return new NotificationDispatcher(senders, ledger, metrics, tracing.getIfAvailable(GatewayTracing::disabled));
    }

    @Bean
    ApprovalNotificationThrottle approvalNotificationThrottle(NotifierProperties properties, NotificationDispatcher dispatcher,
                                                              DeliveryMetrics metrics) {
        return ApprovalNotificationThrottle.start(properties.approvalLimit(), properties.approvalWindow(), Clock.systemUTC(),
                dispatcher, metrics);
    }

    /** Every kind but kill_switch, approval requests through the throttle. */
    @Bean
    NotificationListener notificationListener(NotificationDispatcher dispatcher, ApprovalNotificationThrottle throttle,
                                              ObjectProvider<GatewayTracing> tracing) {
        return new NotificationListener(dispatcher, NotificationLane.ROUTINE, throttle, tracing.getIfAvailable(GatewayTracing::disabled));
    }

    /** Kill-switch alerts only, never throttled. */
    @Bean
    NotificationListener urgentNotificationListener(NotificationDispatcher dispatcher, ObjectProvider<GatewayTracing> tracing) {
        return new NotificationListener(dispatcher, NotificationLane.URGENT, ApprovalNotificationThrottle.unlimited(),
                tracing.getIfAvailable(GatewayTracing::disabled));
    }
}
