-- Round 5 (development): array_insert at a negative position before the
-- start of the array.

-- name: r5_array_insert_negative_before
-- inputs: df=clicks
SELECT DISTINCT array_insert(array(1, 2, 3), -4, 9) AS a, array_insert(array(1, 2, 3), -6, 9) AS b, array_insert(array(), -2, 'x') AS c, array_insert(array('a'), -3, CAST(NULL AS STRING)) AS d FROM {df}

-- name: r5_array_insert_negative_column
-- inputs: df=nested
SELECT id, array_insert(tags, -4, 'first') AS t, array_insert(scores, -1 - size(scores), 0) AS s FROM {df}
