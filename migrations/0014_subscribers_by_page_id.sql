-- The notifier reads a page's active subscribers in chunks after a (page, id) cursor: each chunk
-- is an index walk, not a sort of all the page's subscribers. It serves lookups by page as well.
CREATE INDEX subscribers_page_active_id_idx ON subscribers (page, id) WHERE state = 'active';
DROP INDEX subscribers_page_active_idx;
