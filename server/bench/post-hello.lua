-- wrk script: one small valid synthesis request, repeated
wrk.method = "POST"
wrk.body = '{"text":"Hello."}'
wrk.headers["Content-Type"] = "application/json"
