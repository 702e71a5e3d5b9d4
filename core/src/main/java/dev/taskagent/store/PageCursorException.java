package dev.taskagent.store;

/**
 * A paging cursor that a listing or a search cannot continue from: it belongs to another query (another agent,
 * other words or filters), or it was changed or cut. Nothing was read; list or search again without a cursor.
 */
public class PageCursorException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the cursor and what to do
     */
    public PageCursorException(String message) {
        super(message);
    }
}
