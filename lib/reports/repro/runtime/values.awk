# The values of a reproduction's curl form, picked out of an answer: one awk for a whole answer,
# never a process per value. Run with LC_ALL=C (bytes, not characters). Files: the answer's
# headers (curl -D), then its body. ENVIRON["PICK"]: "name=/json/pointer ..." (a space in a
# pointer written ~2). Prints the problem `code` (letters, digits, `_.-` only: safe on a
# terminal), the Retry-After (digits or nothing), then four lines per pick: the value,
# percent-encoded, as inside a JSON string, form-encoded; four empty lines when the answer has no
# such string or number (or one holding control characters, which no request carries as it is).
# Values learned are also written "name TAB value" to ENVIRON["VALUES"], which the judgement at
# the end reads. Iterative, so an answer nested 100,000 deep exhausts no stack.
BEGIN {
  for (i = 1; i < 256; i++) ORD[sprintf("%c", i)] = i
  NONE = "\001"
}
FILENAME == ARGV[1] {
  line = $0
  sub(/\r$/, "", line)
  if (line ~ /^HTTP\//) RA = ""
  else if (tolower(line) ~ /^retry-after:/) {
    v = line
    sub(/^[^:]*:[ \t]*/, "", v)
    sub(/[ \t]+$/, "", v)
    RA = v ~ /^[0-9]+$/ ? v : ""
  }
  next
}
{ S = S $0 "\n" }
function ws(  c) {
  while (P <= N) {
    c = substr(S, P, 1)
    if (c == " " || c == "\t" || c == "\n" || c == "\r") P++
    else break
  }
}
function skipstr(  c) {
  P++
  while (P <= N) {
    c = substr(S, P, 1)
    if (c == "\\") P += 2
    else if (c == "\"") { P++; return 1 }
    else P++
  }
  return 0
}
function skipval(  c, d) {
  ws()
  c = substr(S, P, 1)
  if (c == "\"") return skipstr()
  if (c == "{" || c == "[") {
    d = 0
    while (P <= N) {
      c = substr(S, P, 1)
      if (c == "\"") { skipstr(); continue }
      if (c == "{" || c == "[") d++
      else if (c == "}" || c == "]") { d--; if (d == 0) { P++; return 1 } }
      P++
    }
    return 0
  }
  while (P <= N) {
    c = substr(S, P, 1)
    if (c == "," || c == "}" || c == "]" || c == " " || c == "\n" || c == "\t" || c == "\r") break
    P++
  }
  return 1
}
function hexval(h,   i, v) {
  v = 0
  h = tolower(h)
  for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
  return v
}
function utf8(n) {
  if (n < 128) return sprintf("%c", n)
  if (n < 2048) return sprintf("%c%c", 192 + int(n / 64), 128 + n % 64)
  if (n < 65536) return sprintf("%c%c%c", 224 + int(n / 4096), 128 + int(n / 64) % 64, 128 + n % 64)
  return sprintf("%c%c%c%c", 240 + int(n / 262144), 128 + int(n / 4096) % 64, 128 + int(n / 64) % 64, 128 + n % 64)
}
function readstr(  c, out, n, low) {
  P++
  out = ""
  while (P <= N) {
    c = substr(S, P, 1)
    if (c == "\"") { P++; return out }
    if (c == "\\") {
      c = substr(S, P + 1, 1)
      P += 2
      if (c == "n") out = out "\n"
      else if (c == "t") out = out "\t"
      else if (c == "r") out = out "\r"
      else if (c == "b") out = out "\b"
      else if (c == "f") out = out "\f"
      else if (c == "u") {
        n = hexval(substr(S, P, 4))
        P += 4
        if (n >= 55296 && n < 56320 && substr(S, P, 2) == "\\u") {
          low = hexval(substr(S, P + 2, 4))
          if (low >= 56320 && low < 57344) { n = 65536 + (n - 55296) * 1024 + (low - 56320); P += 6 }
        }
        out = out utf8(n)
      } else out = out c
      continue
    }
    out = out c
    P++
  }
  return out
}
# The string or number at a JSON pointer into the body; NONE when there is none.
function pick(ptr,   n, toks, i, t, c, key, k, start, lit) {
  P = 1
  n = split(ptr, toks, "/")
  for (i = 2; i <= n; i++) {
    t = toks[i]
    gsub(/~1/, "/", t)
    gsub(/~2/, " ", t)
    gsub(/~0/, "~", t)
    ws()
    c = substr(S, P, 1)
    if (c == "{") {
      P++
      for (;;) {
        ws()
        if (substr(S, P, 1) != "\"") return NONE
        key = readstr()
        ws()
        if (substr(S, P, 1) != ":") return NONE
        P++
        ws()
        if (key == t) break
        if (!skipval()) return NONE
        ws()
        if (substr(S, P, 1) != ",") return NONE
        P++
      }
    } else if (c == "[") {
      if (t !~ /^(0|[1-9][0-9]*)$/) return NONE
      P++
      for (k = 0; k < t + 0; k++) {
        ws()
        if (substr(S, P, 1) == "]" || !skipval()) return NONE
        ws()
        if (substr(S, P, 1) != ",") return NONE
        P++
      }
      ws()
      if (substr(S, P, 1) == "]") return NONE
    } else return NONE
  }
  ws()
  c = substr(S, P, 1)
  if (c == "\"") return readstr()
  if (c == "{" || c == "[") return NONE
  start = P
  skipval()
  lit = substr(S, start, P - start)
  return lit ~ /^-?[0-9]/ ? lit : NONE
}
function sendable(s,   i, o) {
  for (i = 1; i <= length(s); i++) { o = ORD[substr(s, i, 1)]; if (o < 32 || o == 127) return 0 }
  return 1
}
function urlenc(s,   i, c, out) {
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c ~ /[A-Za-z0-9_.!~*'()-]/) out = out c
    else out = out sprintf("%%%02X", ORD[c])
  }
  return out
}
function jsonenc(s,   i, c, out) {
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\" || c == "\"") out = out "\\" c
    else out = out c
  }
  return out
}
END {
  N = length(S)
  code = pick("/code")
  if (code == NONE) code = ""
  gsub(/[^A-Za-z0-9_.-]/, "", code)
  print substr(code, 1, 60)
  print RA
  n = split(ENVIRON["PICK"], picks, " ")
  for (i = 1; i <= n; i++) {
    eq = index(picks[i], "=")
    name = substr(picks[i], 1, eq - 1)
    v = pick(substr(picks[i], eq + 1))
    if (v == NONE || !sendable(v)) { print ""; print ""; print ""; print ""; continue }
    forms(v)
    if (name ~ /^v[0-9]+$/) learned(name, v)
  }
}

function forms(v,   form) {
  form = urlenc(v)
  gsub(/%20/, "+", form)
  print v
  print urlenc(v)
  print jsonenc(v)
  print form
}
function learned(name, v) {
  if (ENVIRON["VALUES"] != "") print name "\t" v >> ENVIRON["VALUES"]
}
