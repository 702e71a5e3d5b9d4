package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.store.TaskStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer observations and metrics of taskagent, when Micrometer is on the class path and the application
 * has a {@link MeterRegistry} (Actuator gives one): a {@link MicrometerTaskObserver} that the queue, the agent
 * and the step executor are given, and the {@link TaskStoreMetrics} gauges. Without Micrometer nothing of this
 * is loaded.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
        },
        before = TaskAgentAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, ObservationRegistry.class})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "taskagent.observations.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentObservationAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentObservationAutoConfiguration() {}

    /**
     * The observer.
     *
     * @param observations the observation registry, {@link ObservationRegistry#NOOP} when there is none
     * @param meters the meter registry
     * @param properties the starter's properties
     * @return the observer
     */
    @Bean
    @ConditionalOnMissingBean(MicrometerTaskObserver.class)
    public MicrometerTaskObserver micrometerTaskObserver(
            ObjectProvider<ObservationRegistry> observations, MeterRegistry meters, TaskAgentProperties properties) {
        return new MicrometerTaskObserver(
                observations.getIfUnique(() -> ObservationRegistry.NOOP),
                meters,
                properties.getObservations().isIncludeContent());
    }

    /**
     * The gauges of every {@link TaskStore} bean.
     *
     * @param beans where the stores are looked up when the gauges are bound
     * @param properties the starter's properties
     * @return the binder, which Spring Boot binds to the meter registries
     */
    @Bean
    @ConditionalOnMissingBean
    public TaskStoreMetrics taskStoreMetrics(ListableBeanFactory beans, TaskAgentProperties properties) {
        return new TaskStoreMetrics(
                () -> beans.getBeansOfType(TaskStore.class),
                properties.getObservations().getGaugeRefresh(),
                Clock.systemUTC());
    }
}
