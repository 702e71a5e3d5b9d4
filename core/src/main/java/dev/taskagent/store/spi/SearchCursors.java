package dev.taskagent.store.spi;

import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.SearchCursorException;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.task.Task;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * The cursors of a search (TS-13.4) and of a queue listing (TS-2.7): opaque texts that carry where the previous page
 * ended and which tasks the listing covers, shared by the stores so that each refuses a bad cursor the same way.
 *
 * <p>A search cursor holds the task id the first page was bounded by (its watermark: later tasks are not part of the
 * search), the rank and id of the last task returned, a digest of the query's {@linkplain
 * SearchQuery#canonicalForm() words and filters}, and a check digest over all of it: a cursor of another query,
 * or one with a character changed, added or cut, is refused with {@link SearchCursorException}. A queue cursor
 * holds the watermark, the claim-order key of the last task returned (priority, creation time, id) and a digest of
 * the {@linkplain QueueQuery#canonicalForm() agent and filters}; a bad one is refused with {@link
 * PageCursorException}. A listing cursor ({@link #encode(String, ListingPosition)}) holds the watermark and the id
 * of the last task, for listings in an order of their own such as a session's. The kinds differ in their first byte, so a search cursor never continues a listing. The
 * check is against mistakes, not a secret: a cursor only continues a listing its holder may read anyway.
 *
 * <p>Thread-safe (stateless).
 */
public final class SearchCursors {
    private static final byte SEARCH_FORMAT = 1;
    private static final byte QUEUE_FORMAT = 2;
    private static final byte LISTING_FORMAT = 3;
    private static final int DIGEST_BYTES = 8;
    private static final int SEARCH_PAYLOAD = Long.BYTES + Double.BYTES + Long.BYTES;
    private static final int QUEUE_PAYLOAD = Long.BYTES + Integer.BYTES + Long.BYTES + Integer.BYTES + Long.BYTES;
    private static final int LISTING_PAYLOAD = Long.BYTES + Long.BYTES;
    private static final byte[] CHECK_SALT = "taskagent search cursor".getBytes(StandardCharsets.UTF_8);

    private static final Kind SEARCH = new Kind(
            SEARCH_FORMAT,
            SEARCH_PAYLOAD,
            "a search",
            "run the search",
            "The cursor belongs to another search (other words or filters); a cursor continues only the search"
                    + " that returned it. Run this search without a cursor.");

    private static final Kind QUEUE = new Kind(
            QUEUE_FORMAT,
            QUEUE_PAYLOAD,
            "a queue listing",
            "list the queue",
            "The cursor belongs to another listing (another agent or filter); a cursor continues only the listing"
                    + " that returned it. List this queue without a cursor.");

    private static final Kind LISTING = new Kind(
            LISTING_FORMAT,
            LISTING_PAYLOAD,
            "a listing",
            "list",
            "The cursor belongs to another listing (other filters); a cursor continues only the listing that"
                    + " returned it. List again without a cursor.");

    private SearchCursors() {}

    /**
     * Where a page ends.
     *
     * @param watermark the highest task id the search covers
     * @param rank the rank of the last task returned
     * @param lastId the id of the last task returned
     */
    public record Position(long watermark, double rank, long lastId) {

        /**
         * Tells whether a match comes after this position in the order of a search: rank descending, then id
         * descending.
         *
         * @param otherRank the match's rank
         * @param otherId the match's id
         * @return true when it belongs to a later page
         */
        public boolean precedes(double otherRank, long otherId) {
            int byRank = Double.compare(otherRank, rank);
            return byRank < 0 || (byRank == 0 && otherId < lastId);
        }
    }

    /**
     * Where a page of an agent's queue ends: the claim-order key of its last task.
     *
     * @param watermark the highest task id the listing covers
     * @param priority the priority of the last task returned
     * @param createdAt when the last task returned was created
     * @param lastId the id of the last task returned
     */
    public record QueuePosition(long watermark, int priority, Instant createdAt, long lastId) {

        /**
         * Checks the invariants.
         *
         * @param watermark the highest task id the listing covers
         * @param priority the priority of the last task returned
         * @param createdAt not null
         * @param lastId the id of the last task returned
         */
        public QueuePosition {
            Objects.requireNonNull(createdAt, "createdAt");
        }

        /**
         * The position after a task.
         *
         * @param watermark the highest task id the listing covers
         * @param last the last task returned
         * @return the position
         */
        public static QueuePosition after(long watermark, Task last) {
            return new QueuePosition(watermark, last.priority(), last.createdAt(), last.id());
        }

        /**
         * Tells whether a task comes after this position in claim order (priority descending, then creation
         * time, then id) and is covered by the listing (its id at most the watermark).
         *
         * @param task a task of the listing
         * @return true when it belongs to a later page
         */
        public boolean precedes(Task task) {
            if (task.id() > watermark) {
                return false;
            }
            if (task.priority() != priority) {
                return task.priority() < priority;
            }
            int byTime = task.createdAt().compareTo(createdAt);
            return byTime > 0 || (byTime == 0 && task.id() > lastId);
        }
    }

    /**
     * Writes the cursor that continues a query after a task.
     *
     * @param query the query
     * @param position where the page ended
     * @return the cursor
     */
    public static String encode(SearchQuery query, Position position) {
        ByteBuffer payload = ByteBuffer.allocate(SEARCH_PAYLOAD);
        payload.putLong(position.watermark());
        payload.putDouble(position.rank());
        payload.putLong(position.lastId());
        return seal(SEARCH, queryDigest(query.canonicalForm()), payload.array());
    }

    /**
     * Reads the cursor of a query, if it has one.
     *
     * @param query the query
     * @return where the previous page ended; empty for the first page
     * @throws SearchCursorException if the cursor was not written for this query's words and filters, or was
     *     changed or cut
     */
    public static Optional<Position> decode(SearchQuery query) {
        if (query.cursor().isEmpty()) {
            return Optional.empty();
        }
        ByteBuffer buffer = open(SEARCH, query.cursor().get(), queryDigest(query.canonicalForm()));
        long watermark = buffer.getLong();
        double rank = buffer.getDouble();
        long lastId = buffer.getLong();
        if (watermark < 0 || lastId < 1 || Double.isNaN(rank)) {
            throw SEARCH.invalid("it holds no position");
        }
        return Optional.of(new Position(watermark, rank, lastId));
    }

    /**
     * Writes the cursor that continues an agent's queue after a task.
     *
     * @param query the query
     * @param position where the page ended
     * @return the cursor
     */
    public static String encode(QueueQuery query, QueuePosition position) {
        ByteBuffer payload = ByteBuffer.allocate(QUEUE_PAYLOAD);
        payload.putLong(position.watermark());
        payload.putInt(position.priority());
        payload.putLong(position.createdAt().getEpochSecond());
        payload.putInt(position.createdAt().getNano());
        payload.putLong(position.lastId());
        return seal(QUEUE, queryDigest(query.canonicalForm()), payload.array());
    }

    /**
     * Reads the cursor of a queue query, if it has one.
     *
     * @param query the query
     * @return where the previous page ended; empty for the first page
     * @throws PageCursorException if the cursor was not written for this agent and filters, or was changed or cut
     */
    public static Optional<QueuePosition> decode(QueueQuery query) {
        if (query.cursor().isEmpty()) {
            return Optional.empty();
        }
        ByteBuffer buffer = open(QUEUE, query.cursor().get(), queryDigest(query.canonicalForm()));
        long watermark = buffer.getLong();
        int priority = buffer.getInt();
        long seconds = buffer.getLong();
        int nanos = buffer.getInt();
        long lastId = buffer.getLong();
        if (watermark < 0 || lastId < 1 || nanos < 0 || nanos > 999_999_999) {
            throw QUEUE.invalid("it holds no position");
        }
        try {
            return Optional.of(new QueuePosition(watermark, priority, Instant.ofEpochSecond(seconds, nanos), lastId));
        } catch (DateTimeException e) {
            throw QUEUE.invalid("it holds no position");
        }
    }

    /**
     * Where a page of a listing ends that keeps its tasks in an order of their own (a session's order, ids): the
     * last task returned, by id, and the highest id the listing covers.
     *
     * @param watermark the highest task id the listing covers
     * @param lastId the id of the last task returned
     */
    public record ListingPosition(long watermark, long lastId) {}

    /**
     * Writes the cursor that continues a listing after a task. A listing names itself by a text that is equal for
     * two requests exactly when they list the same tasks in the same order (what is listed and every filter, not
     * the page); the cursor carries a digest of it, so that another listing refuses it.
     *
     * @param listing the listing's canonical form
     * @param position where the page ended
     * @return the cursor
     */
    public static String encode(String listing, ListingPosition position) {
        ByteBuffer payload = ByteBuffer.allocate(LISTING_PAYLOAD);
        payload.putLong(position.watermark());
        payload.putLong(position.lastId());
        return seal(LISTING, queryDigest("listing\u0000" + listing), payload.array());
    }

    /**
     * Reads the cursor of a listing.
     *
     * @param listing the listing's canonical form, as given to {@link #encode(String, ListingPosition)}
     * @param cursor the cursor, or null for the first page
     * @return where the previous page ended; empty for the first page
     * @throws PageCursorException if the cursor was not written for this listing, or was changed or cut
     */
    public static Optional<ListingPosition> decode(String listing, String cursor) {
        if (cursor == null) {
            return Optional.empty();
        }
        ByteBuffer buffer = open(LISTING, cursor, queryDigest("listing\u0000" + listing));
        long watermark = buffer.getLong();
        long lastId = buffer.getLong();
        if (watermark < 0 || lastId < 1) {
            throw LISTING.invalid("it holds no position");
        }
        return Optional.of(new ListingPosition(watermark, lastId));
    }

    /** What differs between the kinds of cursor: the format byte, the payload's size and the messages. */
    private record Kind(byte format, int payloadLength, String returnedBy, String again, String another) {
        int length() {
            return 1 + DIGEST_BYTES + payloadLength + DIGEST_BYTES;
        }

        PageCursorException invalid(String why) {
            return exception("The cursor cannot be used: " + why + ". Pass the cursor exactly as the previous page"
                    + " returned it, or " + again + " again without a cursor.");
        }

        PageCursorException exception(String message) {
            return format == SEARCH_FORMAT ? new SearchCursorException(message) : new PageCursorException(message);
        }
    }

    private static String seal(Kind kind, byte[] queryDigest, byte[] payload) {
        int length = kind.length();
        ByteBuffer buffer = ByteBuffer.allocate(length);
        buffer.put(kind.format());
        buffer.put(queryDigest);
        buffer.put(payload);
        buffer.put(check(Arrays.copyOf(buffer.array(), length - DIGEST_BYTES)));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
    }

    /** Checks a cursor of a kind and returns a buffer positioned at its payload. */
    private static ByteBuffer open(Kind kind, String cursor, byte[] queryDigest) {
        if (cursor.length() > 2 * kind.length()) {
            throw kind.invalid("it is not a cursor " + kind.returnedBy() + " returned (too long)");
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw kind.invalid("it is not a cursor " + kind.returnedBy() + " returned");
        }
        int length = kind.length();
        if (bytes.length != length
                || bytes[0] != kind.format()
                || !Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(bytes)
                        .equals(cursor)) {
            throw kind.invalid("it is not a cursor " + kind.returnedBy() + " returned (changed or cut)");
        }
        byte[] expected = check(Arrays.copyOf(bytes, length - DIGEST_BYTES));
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, length - DIGEST_BYTES, length))) {
            throw kind.invalid("it was changed or cut");
        }
        if (!MessageDigest.isEqual(queryDigest, Arrays.copyOfRange(bytes, 1, 1 + DIGEST_BYTES))) {
            throw kind.exception(kind.another());
        }
        return ByteBuffer.wrap(bytes, 1 + DIGEST_BYTES, kind.payloadLength());
    }

    private static byte[] queryDigest(String canonicalForm) {
        return digest(canonicalForm.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] check(byte[] payload) {
        byte[] salted = Arrays.copyOf(CHECK_SALT, CHECK_SALT.length + payload.length);
        System.arraycopy(payload, 0, salted, CHECK_SALT.length, payload.length);
        return digest(salted);
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(bytes), DIGEST_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
