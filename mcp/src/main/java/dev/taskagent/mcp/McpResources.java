package dev.taskagent.mcp;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.store.TaskStore;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpChangeFeed;
import io.modelcontextprotocol.modern.server.feature.McpSyncResource;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceRepository;
import io.modelcontextprotocol.modern.server.feature.ResourceTemplatesPage;
import io.modelcontextprotocol.modern.server.feature.ResourcesFeature;
import io.modelcontextprotocol.modern.server.feature.ResourcesPage;
import io.modelcontextprotocol.modern.server.feature.ServerChange;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@linkplain TaskResources task resources} on both protocol revisions, and their change notifications.
 *
 * <ul>
 *   <li>2025-11-25 (the SDK's classic server): the templates, one listed resource (the task list of the
 *       server's own session), {@code resources/subscribe} and {@code resources/unsubscribe} (the SDK keeps
 *       who subscribed to what); a missing resource is {@code -32002} (resource not found) with {@code
 *       data.uri}.
 *   <li>2026-07-28 (the SDK's {@code modern} server): the same through its {@code ResourcesFeature}, and
 *       {@code subscriptions/listen} with {@code resourceSubscriptions}; a missing resource is {@code -32602}
 *       with {@code data.uri}, as SEP-2164 asks.
 * </ul>
 *
 * <p>Changes come from the store's {@linkplain EventFeed event feed}, so a task changed by another process
 * on the same store notifies too: every committed change of a task announces its two task URIs and its
 * session's two list URIs to those who subscribed to them. A store without a feed serves the resources
 * without subscriptions (the capability says so).
 *
 * <p>Thread-safe.
 */
final class McpResources implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(McpResources.class);

    private final TaskResources resources;
    private final String ownSessionId;
    private final TaskStore store;
    private final boolean subscribable;
    private final McpChangeFeed changes = new McpChangeFeed();
    private volatile Consumer<String> classicNotifier = uri -> {};
    private volatile FeedSubscription subscription;
    private final McpTelemetry telemetry;

    McpResources(TaskStore store, String ownSessionId, McpTelemetry telemetry) {
        this.store = store;
        this.telemetry = telemetry;
        this.resources = new TaskResources(store);
        this.ownSessionId = ownSessionId;
        this.subscribable = hasFeed(store);
    }

    private static boolean hasFeed(TaskStore store) {
        try {
            store.eventFeed();
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** Whether clients may subscribe: the store has an event feed. */
    boolean subscribable() {
        return subscribable;
    }

    /**
     * Starts relaying the feed's changes to the subscribers of both revisions, from the feed's newest
     * position on; does nothing for a store without a feed or when started before.
     *
     * @param classic sends {@code notifications/resources/updated} for a URI to the 2025-11-25 sessions that
     *     subscribed to it
     */
    synchronized void start(Consumer<String> classic) {
        if (!subscribable || subscription != null) {
            return;
        }
        classicNotifier = classic;
        EventFeed feed = store.eventFeed();
        try {
            subscription = feed.subscribe(
                    feed.lastPosition(), event -> TaskResources.changedBy(event).forEach(this::announce));
        } catch (RuntimeException e) {
            // The tools and resource reads still work; only the notifications are missing, and the log says so.
            LOG.warn(
                    "Resource change notifications are off: the store's event feed could not be read ({}). Restart"
                            + " the server when the store is back to have them.",
                    e.getMessage(),
                    e);
        }
    }

    private void announce(String uri) {
        changes.broadcast(new ServerChange.ResourceUpdated(uri));
        try {
            classicNotifier.accept(uri);
        } catch (RuntimeException e) {
            LOG.warn("Could not notify the subscribers of {}", uri, e);
        }
    }

    /** Stops relaying changes. Idempotent. */
    @Override
    public synchronized void close() {
        FeedSubscription current = subscription;
        if (current != null) {
            current.close();
        }
    }

    // ---- 2025-11-25 -------------------------------------------------------------------------------------

    /** The capabilities of the classic server: tools, and resources with subscriptions if the store allows. */
    McpSchema.ServerCapabilities classicCapabilities() {
        return McpSchema.ServerCapabilities.builder()
                .tools(false)
                .resources(subscribable, false)
                .build();
    }

    /** The resource templates of the classic server; all read through {@link TaskResources#read}. */
    List<SyncResourceTemplateSpecification> classicTemplates() {
        return TaskResources.TEMPLATES.stream()
                .map(template -> new SyncResourceTemplateSpecification(
                        McpSchema.ResourceTemplate.builder(template.uriTemplate(), template.name())
                                .title(template.title())
                                .description(template.description())
                                .mimeType(template.mimeType())
                                .build(),
                        this::tracedClassicRead))
                .toList();
    }

    /** The listed resource of the classic server: the task list of the server's own session. */
    List<SyncResourceSpecification> classicListed() {
        return List.of(new SyncResourceSpecification(
                McpSchema.Resource.builder(
                                TaskResources.sessionUri(ownSessionId, false), "session-tasks-" + ownSessionId)
                        .title(ownTitle())
                        .description(ownDescription())
                        .mimeType(TaskResources.MARKDOWN)
                        .build(),
                this::tracedClassicRead));
    }

    private McpSchema.ReadResourceResult tracedClassicRead(
            McpSyncServerExchange exchange, McpSchema.ReadResourceRequest request) {
        McpTelemetry.Operation operation = telemetry.resourceRead(
                request.uri(), McpTools.protocolVersion(exchange), null, exchange.sessionId(), request.meta());
        McpSchema.ReadResourceResult result = operation.within(() -> classicRead(request.uri()));
        operation.succeeded();
        return result;
    }

    private McpSchema.ReadResourceResult classicRead(String uri) {
        try {
            TaskResources.Contents contents = resources.read(uri);
            return McpSchema.ReadResourceResult.builder(
                            List.of(McpSchema.TextResourceContents.builder(contents.uri(), contents.text())
                                    .mimeType(contents.mimeType())
                                    .build()))
                    .build();
        } catch (TaskResources.NotFound e) {
            throw McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND)
                    .message(e.getMessage())
                    .data(Map.of("uri", String.valueOf(e.uri())))
                    .build();
        } catch (RuntimeException e) {
            LOG.warn("Reading the resource {} failed", uri, e);
            throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                    .message(storeFailure(uri))
                    .build();
        }
    }

    // ---- 2026-07-28 -------------------------------------------------------------------------------------

    /** The feature of the stateless server: templates, the listed resource, reads. */
    ResourcesFeature modernFeature(io.modelcontextprotocol.json.McpJsonMapper jsonMapper) {
        List<io.modelcontextprotocol.modern.McpSchema.ResourceTemplate> templates = TaskResources.TEMPLATES.stream()
                .map(template -> io.modelcontextprotocol.modern.McpSchema.ResourceTemplate.builder(
                                template.uriTemplate(), template.name())
                        .title(template.title())
                        .description(template.description())
                        .mimeType(template.mimeType())
                        .build())
                .toList();
        List<io.modelcontextprotocol.modern.McpSchema.Resource> listed =
                List.of(io.modelcontextprotocol.modern.McpSchema.Resource.builder(
                                TaskResources.sessionUri(ownSessionId, false), "session-tasks-" + ownSessionId)
                        .title(ownTitle())
                        .description(ownDescription())
                        .mimeType(TaskResources.MARKDOWN)
                        .build());
        McpSyncResource reader = McpSyncResource.of(
                (context, request) -> McpSyncResponse.result(tracedModernRead(context, request.uri())));
        McpSyncResourceRepository repository = new McpSyncResourceRepository() {
            @Override
            public ResourcesPage list(McpRequestContext context, String cursor) {
                return ResourcesPage.of(listed);
            }

            @Override
            public ResourceTemplatesPage listTemplates(McpRequestContext context, String cursor) {
                return ResourceTemplatesPage.of(templates);
            }

            @Override
            public McpSyncResource find(McpRequestContext context, String uri) {
                // Every URI goes to the one reader, which says why a URI names nothing.
                return reader;
            }

            @Override
            public boolean supportsSubscribe() {
                return subscribable;
            }
        };
        return ResourcesFeature.ofSync(
                repository, jsonMapper, 0, io.modelcontextprotocol.modern.McpSchema.CacheScope.PRIVATE);
    }

    /** Where the stateless server's {@code subscriptions/listen} streams take their changes from. */
    McpChangeFeed modernChanges() {
        return changes;
    }

    private io.modelcontextprotocol.modern.McpSchema.ReadResourceResult tracedModernRead(
            McpRequestContext context, String uri) {
        McpTelemetry.Operation operation =
                telemetry.resourceRead(uri, context.protocolVersion(), context.requestId(), null, context.meta());
        io.modelcontextprotocol.modern.McpSchema.ReadResourceResult result = operation.within(() -> modernRead(uri));
        operation.succeeded();
        return result;
    }

    private io.modelcontextprotocol.modern.McpSchema.ReadResourceResult modernRead(String uri) {
        TaskResources.Contents contents;
        try {
            contents = resources.read(uri);
        } catch (TaskResources.NotFound e) {
            throw McpException.invalidParams(e.getMessage(), Map.of("uri", String.valueOf(e.uri())));
        } catch (RuntimeException e) {
            LOG.warn("Reading the resource {} failed", uri, e);
            throw new McpException(McpSchema.ErrorCodes.INTERNAL_ERROR, storeFailure(uri));
        }
        return io.modelcontextprotocol.modern.McpSchema.ReadResourceResult.builder(
                        List.of(io.modelcontextprotocol.modern.McpSchema.TextResourceContents.builder(
                                        contents.uri(), contents.text())
                                .mimeType(contents.mimeType())
                                .build()))
                .build();
    }

    private static String storeFailure(String uri) {
        return "The resource '" + uri + "' could not be read: the store failed. Try again later.";
    }

    private String ownTitle() {
        return "Tasks of session " + ownSessionId;
    }

    private String ownDescription() {
        return "The tasks of this server's session (where create_task puts new tasks), in order; other" + " sessions: "
                + TaskResources.SESSION_TEMPLATE + ".";
    }
}
