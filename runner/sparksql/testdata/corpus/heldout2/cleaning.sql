-- Round 2 held-out part: cleaning landing data. Written before the
-- round-2 fixes; its figures are reported apart.

-- name: h2_clean_country_map
-- inputs: df=landing
SELECT rec_id, CASE upper(trim(country)) WHEN 'FR' THEN 'France' WHEN 'US' THEN 'United States' WHEN 'GB' THEN 'United Kingdom' ELSE 'Other' END AS country_name FROM {df}

-- name: h2_clean_amount_sign
-- inputs: df=landing
SELECT rec_id, try_cast(amount AS DECIMAL(12,2)) < 0 AS is_refund FROM {df}

-- name: h2_clean_trim_all_columns
-- inputs: df=landing
SELECT trim(rec_id) AS rec_id, trim(client_id) AS client_id, trim(amount) AS amount, trim(country) AS country FROM {df}

-- name: h2_clean_empty_to_null_all
-- inputs: df=landing
SELECT rec_id, nullif(trim(client_id), '') AS c, nullif(trim(phone), '') AS p, nullif(trim(event_date), '') AS d FROM {df}

-- name: h2_clean_keep_digits_only_id
-- inputs: df=landing
SELECT rec_id, CAST(regexp_replace(client_id, '\\D', '') AS INT) AS cid FROM {df} WHERE rec_id IN ('1', '02', '4', '8')

-- name: h2_clean_email_mask
-- inputs: df=landing
SELECT rec_id, regexp_replace(email, '(?<=.).(?=[^@]*@)', '*') AS masked FROM {df}

-- name: h2_clean_amount_european_decimal
-- inputs: df=landing
SELECT rec_id, try_cast(replace(replace(amount, '.', ''), ',', '.') AS DECIMAL(12,2)) AS eu FROM {df} WHERE rec_id IN ('1', '02', '3')

-- name: h2_clean_flag_count
-- inputs: df=landing
SELECT lower(active) IN ('y', 'yes', 'true', '1') AS active, count(*) AS n FROM {df} GROUP BY 1

-- name: h2_clean_dedup_latest_file
-- inputs: df=landing
SELECT client_id, max(src_file) AS latest_file FROM {df} WHERE client_id IS NOT NULL GROUP BY client_id

-- name: h2_clean_try_cast_date_then_default
-- inputs: df=landing
SELECT rec_id, coalesce(try_cast(event_date AS DATE), DATE '1900-01-01') AS d FROM {df}

-- name: h2_clean_id_is_numeric
-- inputs: df=landing
SELECT rec_id, client_id RLIKE '^\\s*[0-9]+\\s*$' AS numeric_id FROM {df}

-- name: h2_clean_uuid_from_hash
-- inputs: df=landing
SELECT rec_id, substr(sha1(coalesce(rec_id, '')), 1, 12) AS short_key FROM {df}

-- name: h2_clean_filter_bad_rows
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE try_cast(trim(client_id) AS INT) IS NOT NULL AND try_cast(amount AS DOUBLE) IS NOT NULL
