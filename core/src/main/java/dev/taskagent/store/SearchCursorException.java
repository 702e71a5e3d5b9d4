package dev.taskagent.store;

/**
 * A search cursor that the search cannot continue from: it belongs to another query (other words or
 * filters), or it was changed or cut. Nothing was read; run the search again without a cursor.
 */
public class SearchCursorException extends PageCursorException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the cursor and what to do
     */
    public SearchCursorException(String message) {
        super(message);
    }
}
