-- Round 2: cleaning landing data (CSV-like string columns), written
-- before the round-2 fixes.

-- name: r2_clean_trim_upper_country
-- inputs: df=landing
SELECT rec_id, upper(trim(country)) AS country FROM {df}

-- name: r2_clean_nullif_empty
-- inputs: df=landing
SELECT rec_id, nullif(trim(amount), '') AS amount, nullif(email, '') AS email FROM {df}

-- name: r2_clean_try_cast_int_id
-- inputs: df=landing
SELECT rec_id, try_cast(trim(client_id) AS INT) AS client_id FROM {df}

-- name: r2_clean_cast_int_id_fails
-- inputs: df=landing
SELECT CAST(client_id AS INT) AS client_id FROM {df}

-- name: r2_clean_cast_int_padded
-- inputs: df=landing
SELECT rec_id, CAST(client_id AS INT) AS client_id FROM {df} WHERE rec_id IN ('1', '02', '3')

-- name: r2_clean_amount_thousands
-- inputs: df=landing
SELECT rec_id, try_cast(regexp_replace(amount, ',', '') AS DECIMAL(12,2)) AS amount FROM {df}

-- name: r2_clean_amount_double
-- inputs: df=landing
SELECT rec_id, try_cast(trim(amount) AS DOUBLE) AS amount FROM {df}

-- name: r2_clean_amount_decimal_exp
-- inputs: df=landing
SELECT rec_id, try_cast(amount AS DECIMAL(10,2)) AS amount FROM {df} WHERE rec_id = '8'

-- name: r2_clean_amount_na_to_null
-- inputs: df=landing
SELECT rec_id, CASE WHEN upper(trim(amount)) IN ('', 'N/A', 'NULL', 'NA') THEN NULL ELSE try_cast(regexp_replace(amount, '[^0-9.-]', '') AS DECIMAL(12,2)) END AS amount FROM {df}

-- name: r2_clean_currency_normalize
-- inputs: df=landing
SELECT rec_id, coalesce(upper(currency), 'UNKNOWN') AS currency FROM {df}

-- name: r2_clean_bool_flags
-- inputs: df=landing
SELECT rec_id, CASE WHEN lower(active) IN ('y', 'yes', 'true', '1') THEN true WHEN lower(active) IN ('n', 'no', 'false', '0') THEN false END AS active FROM {df}

-- name: r2_clean_cast_bool
-- inputs: df=landing
SELECT rec_id, try_cast(active AS BOOLEAN) AS active FROM {df}

-- name: r2_clean_cast_bool_strict
-- inputs: df=landing
SELECT rec_id, CAST(active AS BOOLEAN) AS active FROM {df}

-- name: r2_clean_email_lower
-- inputs: df=landing
SELECT rec_id, lower(trim(email)) AS email FROM {df}

-- name: r2_clean_email_valid
-- inputs: df=landing
SELECT rec_id, email RLIKE '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$' AS valid FROM {df}

-- name: r2_clean_email_domain
-- inputs: df=landing
SELECT rec_id, lower(split_part(trim(email), '@', 2)) AS domain FROM {df}

-- name: r2_clean_email_local_part
-- inputs: df=landing
SELECT rec_id, regexp_extract(email, '^([^@+]+)', 1) AS local_part FROM {df}

-- name: r2_clean_phone_digits
-- inputs: df=landing
SELECT rec_id, regexp_replace(phone, '[^0-9+]', '') AS phone FROM {df}

-- name: r2_clean_phone_e164
-- inputs: df=landing
SELECT rec_id, CASE WHEN regexp_replace(phone, '[^0-9]', '') RLIKE '^0033' THEN concat('+33', substr(regexp_replace(phone, '[^0-9]', ''), 5)) WHEN phone LIKE '+%' THEN regexp_replace(phone, '[^0-9+]', '') ELSE NULL END AS e164 FROM {df}

-- name: r2_clean_leading_zeros
-- inputs: df=landing
SELECT rec_id, ltrim('0', rec_id) AS id_nz, lpad(rec_id, 5, '0') AS id_pad FROM {df}

-- name: r2_clean_coalesce_chain
-- inputs: df=landing
SELECT rec_id, coalesce(nullif(trim(country), ''), nullif(currency, ''), 'n/a') AS origin FROM {df}

-- name: r2_clean_src_file_date
-- inputs: df=landing
SELECT rec_id, regexp_extract(src_file, '(\\d{4})[/-](\\d{2})[/-](\\d{2})', 0) AS file_date FROM {df}

-- name: r2_clean_src_file_name
-- inputs: df=landing
SELECT rec_id, element_at(split(src_file, '/'), -1) AS file_name FROM {df}

-- name: r2_clean_src_file_scheme
-- inputs: df=landing
SELECT rec_id, substring_index(src_file, ':', 1) AS scheme, regexp_extract(src_file, '^[a-z0-9]+://([^/]+)', 1) AS host FROM {df}

-- name: r2_clean_dedup_distinct
-- inputs: df=history
SELECT DISTINCT id, op, seq, status FROM {df}

-- name: r2_clean_dedup_row_number
-- inputs: df=landing
SELECT * EXCEPT (rn) FROM (SELECT *, row_number() OVER (PARTITION BY try_cast(trim(client_id) AS INT) ORDER BY rec_id) AS rn FROM {df}) WHERE rn = 1

-- name: r2_clean_drop_all_null_rows
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE coalesce(rec_id, client_id, amount, email) IS NOT NULL

-- name: r2_clean_reject_reason
-- inputs: df=landing
SELECT rec_id, concat_ws('; ', CASE WHEN try_cast(trim(client_id) AS INT) IS NULL THEN 'bad client_id' END, CASE WHEN try_cast(regexp_replace(amount, ',', '') AS DOUBLE) IS NULL THEN 'bad amount' END, CASE WHEN email IS NULL OR email = '' THEN 'no email' END) AS reasons FROM {df}

-- name: r2_clean_quarantine_count
-- inputs: df=landing
SELECT count_if(try_cast(trim(client_id) AS INT) IS NULL) AS bad_client, count_if(try_cast(amount AS DOUBLE) IS NULL) AS bad_amount, count(*) AS n FROM {df}

-- name: r2_clean_initcap_name
-- inputs: df=customers
SELECT customer_id, initcap(lower(trim(name))) AS name FROM {df}

-- name: r2_clean_collapse_spaces
-- inputs: df=customers
SELECT customer_id, trim(regexp_replace(name, '\\s+', ' ')) AS name FROM {df}

-- name: r2_clean_strip_accents_translate
-- inputs: df=customers
SELECT customer_id, translate(name, 'éèêëàâäïîôöùûüç', 'eeeeaaaiioouuuc') AS ascii_name FROM {df}

-- name: r2_clean_hash_key
-- inputs: df=landing
SELECT rec_id, sha2(concat_ws('||', coalesce(rec_id, ''), coalesce(client_id, ''), coalesce(amount, '')), 256) AS row_hash FROM {df}

-- name: r2_clean_md5_key
-- inputs: df=landing
SELECT rec_id, md5(concat_ws('|', rec_id, email)) AS k FROM {df}

-- name: r2_clean_cast_string_long
-- inputs: df=landing
SELECT rec_id, try_cast(rec_id AS BIGINT) AS id, try_cast(client_id AS SMALLINT) AS c FROM {df}

-- name: r2_clean_cast_int_decimal_string
-- inputs: df=landing
SELECT rec_id, try_cast('12.5' AS INT) AS a, try_cast(amount AS INT) AS b FROM {df}

-- name: r2_clean_replace_null_literal
-- inputs: df=landing
SELECT rec_id, nvl(nullif(lower(country), 'null'), 'xx') AS country FROM {df}

-- name: r2_clean_char_length_checks
-- inputs: df=landing
SELECT rec_id, length(rec_id) = 1 AS one_char, char_length(trim(country)) AS n FROM {df}

-- name: r2_clean_try_to_number
-- inputs: df=landing
SELECT rec_id, try_to_number(trim(amount), '9,999.99') AS amount FROM {df}

-- name: r2_clean_to_number_fmt
-- inputs: df=landing
SELECT rec_id, to_number(amount, '9,999.99') AS amount FROM {df} WHERE rec_id IN ('1', '02')

-- name: r2_clean_filter_between_strings
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE client_id BETWEEN 2 AND 5

-- name: r2_clean_filter_eq_int_on_string
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE client_id = 1

-- name: r2_clean_filter_in_ints_on_string
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE rec_id IN (1, 3, 5)
