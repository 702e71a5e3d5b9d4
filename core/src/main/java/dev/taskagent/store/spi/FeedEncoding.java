package dev.taskagent.store.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.event.EventFeed;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.task.Task;
import java.util.Objects;
import java.util.function.Function;

/**
 * How a store writes {@link TaskEvent}s into its {@link EventFeed}, the same way on every store: the kind's
 * wire name and a small JSON payload of what changed, and the argument checks of a read.
 *
 * <p>Thread-safe (stateless).
 */
public final class FeedEncoding {
    /** The kind of a change made without an event of its own (straight through a transaction). */
    public static final String UPDATED = "updated";

    /** The kind of a claim's event. */
    public static final String CLAIMED = "claimed";

    /** The kind of {@link TaskEvent.DependencyAdded}; its payload holds {@code blocker_id} and {@code open_blockers}. */
    public static final String DEPENDENCY_ADDED = "dependency_added";

    /** The kind of {@link TaskEvent.DependencyRemoved}; its payload holds {@code blocker_id} and {@code open_blockers}. */
    public static final String DEPENDENCY_REMOVED = "dependency_removed";

    /**
     * The kind of {@link TaskEvent.Unblocked}: the task became claimable because its last open blocker ended
     * in success; its payload holds the {@code assignee}, so that a worker waiting on that queue wakes.
     */
    public static final String UNBLOCKED = "unblocked";

    /**
     * The fields of a {@code claimed} payload, in the order they are written. A store that appends the event
     * in its claim's SQL statement builds that SQL from this list with {@link #claimedPayloadSql}, so the
     * payload is described once, here, whichever side writes it.
     */
    public enum ClaimedField {
        /** The task's version after the claim, a number. */
        VERSION(TaskJson.VERSION),
        /** The claiming agent, a string. */
        AGENT("agent"),
        /** The claim's attempt, a number. */
        ATTEMPT(TaskJson.ATTEMPT),
        /** When the claim's lease ends, a string as {@code Instant.toString()} writes it. */
        LEASE_UNTIL(TaskJson.LEASE_UNTIL);

        private final String wireName;

        ClaimedField(String wireName) {
            this.wireName = wireName;
        }

        /**
         * Names the field in the payload.
         *
         * @return e.g. {@code lease_until}
         */
        public String wireName() {
            return wireName;
        }
    }

    /** At most this many message ids are listed in a {@code messages_linked} payload. */
    static final int MESSAGE_IDS_LIMIT = 50;

    private FeedEncoding() {}

    /**
     * An event as a store appends it, before the feed gives it a position.
     *
     * @param taskId the task that changed
     * @param sessionId its session
     * @param kind the event's wire name
     * @param payload the JSON object of what changed
     */
    public record Encoded(long taskId, String sessionId, String kind, String payload) {
        /**
         * Checks the invariants.
         *
         * @param taskId the task that changed
         * @param sessionId its session; not null
         * @param kind the event's wire name; not null
         * @param payload the JSON object of what changed; not null
         */
        public Encoded {
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(payload, "payload");
        }
    }

    /**
     * Encodes an event.
     *
     * @param event the event
     * @return its kind and payload
     */
    public static Encoded encode(TaskEvent event) {
        Task task = event.task();
        if (event instanceof TaskEvent.Created) {
            return new Encoded(
                    task.id(), task.sessionId(), "created", TaskJson.render(task, TaskJson.View.CREATED_EVENT));
        }
        ObjectNode payload = Json.mapper().createObjectNode();
        payload.put(TaskJson.VERSION, task.version());
        String kind;
        if (event instanceof TaskEvent.Updated) {
            kind = UPDATED;

        } else if (event instanceof TaskEvent.StatusChanged changed) {
            payload.put("from", changed.from().wireName());
            payload.put("to", changed.to().wireName());
            kind = "status_changed";

        } else if (event instanceof TaskEvent.ProgressAppended appended) {
            payload.put("progress", cut(appended.progress()));
            kind = "progress_appended";

        } else if (event instanceof TaskEvent.PreferenceSet set) {
            payload.put("preference", cut(set.preference()));
            kind = "preference_set";

        } else if (event instanceof TaskEvent.MessagesLinked linked) {
            ArrayNode ids = payload.putArray("message_ids");
            linked.messageIds().stream().limit(MESSAGE_IDS_LIMIT).forEach(ids::add);
            payload.put("count", linked.messageIds().size());
            kind = "messages_linked";

        } else if (event instanceof TaskEvent.StepCompleted completed) {
            payload.put("step", completed.stepNumber());
            payload.put("text", cut(completed.stepText()));
            kind = "step_completed";

        } else if (event instanceof TaskEvent.Claimed claimed) {
            return new Encoded(task.id(), task.sessionId(), CLAIMED, claimedPayload(task, claimed.agent()));

        } else if (event instanceof TaskEvent.Moved moved) {
            payload.put("from", moved.fromAgent());
            payload.put("to", moved.toAgent());
            payload.put("comment", cut(moved.comment()));
            kind = "moved";

        } else if (event instanceof TaskEvent.Commented commented) {
            payload.put("author", commented.comment().author());
            payload.put("text", cut(commented.comment().text()));
            kind = "commented";

        } else if (event instanceof TaskEvent.Completed completed) {
            payload.put("agent", completed.agent());
            payload.put("status", completed.outcome().wireName());
            payload.put("attempt", task.attempt());
            putIfPresent(payload, "comment", completed.comment() == null ? null : cut(completed.comment()));
            kind = "completed";

        } else if (event instanceof TaskEvent.Released released) {
            payload.put("agent", released.agent());
            payload.put("attempt", task.attempt());
            kind = "released";

        } else if (event instanceof TaskEvent.DependencyAdded added) {
            payload.put("blocker_id", added.blockerId());
            payload.put("open_blockers", task.openBlockers());
            kind = DEPENDENCY_ADDED;

        } else if (event instanceof TaskEvent.DependencyRemoved removed) {
            payload.put("blocker_id", removed.blockerId());
            payload.put("open_blockers", task.openBlockers());
            kind = DEPENDENCY_REMOVED;

        } else if (event instanceof TaskEvent.Unblocked) {
            putIfPresent(payload, "assignee", task.assignee());
            kind = UNBLOCKED;

        } else if (event instanceof TaskEvent.LeaseExpired expired) {
            payload.put("attempt", expired.expiredAttempt());
            payload.put("outcome", expired.deadLettered() ? "dead_lettered" : "requeued");
            kind = "lease_expired";

        } else {
            throw new IllegalArgumentException(
                    "Unknown event " + event.getClass().getName());
        }
        return new Encoded(task.id(), task.sessionId(), kind, payload.toString());
    }

    /**
     * Writes the payload of a {@code claimed} event, field by field as {@link ClaimedField} lists them.
     *
     * @param task the task after the claim
     * @param agent the claiming agent
     * @return the JSON object
     */
    static String claimedPayload(Task task, String agent) {
        ObjectNode payload = Json.mapper().createObjectNode();
        JsonNodeFactory values = Json.mapper().getNodeFactory();
        for (ClaimedField field : ClaimedField.values()) {
            // A switch expression: a field added to ClaimedField does not compile until it is written here.
            JsonNode value =
                    switch (field) {
                        case VERSION -> values.numberNode(task.version());
                        case AGENT -> values.textNode(agent);
                        case ATTEMPT -> values.numberNode(task.attempt());
                        case LEASE_UNTIL ->
                            task.leaseExpiresAt() == null
                                    ? null
                                    : values.textNode(task.leaseExpiresAt().toString());
                    };
            if (value != null) {
                payload.set(field.wireName(), value);
            }
        }
        return payload.toString();
    }

    /**
     * Builds the SQL expression of a {@code claimed} payload for a store that appends the event in its
     * claim's statement: the JSON object of {@link ClaimedField}'s fields in their order, each value given
     * by the store as an SQL expression that yields the value's JSON text (a number's digits, a string with
     * its quotes, e.g. the parameter a store binds to {@link #jsonString}). {@code ||} concatenates.
     *
     * @param jsonValue the SQL expression of each field's JSON value
     * @return the SQL expression of the whole payload, as text
     * @throws NullPointerException if a field has no expression
     */
    public static String claimedPayloadSql(Function<ClaimedField, String> jsonValue) {
        StringBuilder sql = new StringBuilder();
        String separator = "{";
        for (ClaimedField field : ClaimedField.values()) {
            String value = Objects.requireNonNull(jsonValue.apply(field), field.wireName());
            sql.append(sql.isEmpty() ? "" : " || ")
                    .append(sqlString(separator + jsonString(field.wireName()) + ":"))
                    .append(" || ")
                    .append(value);
            separator = ",";
        }
        return sql.append(" || '}'").toString();
    }

    /** An SQL string literal; a JSON field name never holds a quote, but one would be doubled. */
    private static String sqlString(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /**
     * Encodes a change that was made without an event of its own: an {@code updated} event.
     *
     * @param task the task after the change
     * @return its kind and payload
     */
    public static Encoded updated(Task task) {
        return encode(new TaskEvent.Updated(task));
    }

    /**
     * Encodes a change made without an event of its own, for a store that knows only the task's id,
     * session and new version (it bumped the task without reading it back).
     *
     * @param taskId the task
     * @param sessionId its session
     * @param version its version after the change
     * @return its kind and payload
     */
    public static Encoded updated(long taskId, String sessionId, long version) {
        ObjectNode payload = Json.mapper().createObjectNode();
        payload.put("version", version);
        return new Encoded(taskId, sessionId, UPDATED, payload.toString());
    }

    /**
     * Writes a text as the payloads write a JSON string: quoted and escaped. For a store that builds a
     * payload in SQL from parts, so that it comes out exactly as {@link #encode} writes it.
     *
     * @param text the text; not null
     * @return the JSON string, with its quotes
     */
    public static String jsonString(String text) {
        return Json.mapper()
                .getNodeFactory()
                .textNode(Objects.requireNonNull(text, "text"))
                .toString();
    }

    /**
     * Checks the arguments of {@link EventFeed#read}; the store checks the position against its feed.
     *
     * @param afterPosition the position to read after
     * @param limit the most events to read
     * @throws IllegalArgumentException if {@code afterPosition} is negative or {@code limit} out of range
     */
    public static void checkRead(long afterPosition, int limit) {
        checkPosition(afterPosition);
        if (limit < 1 || limit > EventFeed.MAX_READ) {
            throw new IllegalArgumentException("limit must be between 1 and " + EventFeed.MAX_READ + ", was " + limit);
        }
    }

    /**
     * Checks a position to read or subscribe after.
     *
     * @param afterPosition the position
     * @throws IllegalArgumentException if it is negative
     */
    public static void checkPosition(long afterPosition) {
        if (afterPosition < 0) {
            throw new IllegalArgumentException(
                    "afterPosition must be 0 (the start of the feed) or a position read before, was " + afterPosition);
        }
    }

    /**
     * Refuses a position the feed has not reached: it came from another feed, or was made up.
     *
     * @param afterPosition the position asked for
     * @param lastPosition the feed's newest position
     * @throws IllegalArgumentException when {@code afterPosition} is ahead of the feed
     */
    public static void checkNotAhead(long afterPosition, long lastPosition) {
        if (afterPosition > lastPosition) {
            throw new IllegalArgumentException("Position " + afterPosition + " is ahead of the feed, whose newest"
                    + " event is at position " + lastPosition + "; read from a position this feed gave you");
        }
    }

    private static String cut(String text) {
        return Texts.abbreviate(text, FeedEvent.PAYLOAD_TEXT_LIMIT);
    }

    private static void putIfPresent(ObjectNode node, String name, String value) {
        if (value != null) {
            node.put(name, value);
        }
    }
}
