#!/usr/bin/env bash
# Assembles the root file system of the image's runtime layer under $1, without a container registry: a Java runtime
# made with jlink from the JDK that runs the build, the shared libraries it links (glibc and friends, copied from this
# machine, found with ldd), a passwd/group naming the unprivileged user 1001, and /tmp. jib-maven-plugin puts it on an
# empty (scratch) base image (pom.xml, profile `image`). The image therefore has this machine's architecture and the
# C library of this machine: build it on the platform it is for (docs/deployment.md).
set -euo pipefail
mkdir -p "$1"
out="$(cd "$1" && pwd)"
java_home="${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}"
# what the server and its libraries use: HTTP, JDBC, Kafka (SASL/GSSAPI, TLS with EC keys), JMX and JFR, XChart's AWT
modules=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,\
java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,\
jdk.charsets,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.jfr,jdk.localedata,jdk.management,jdk.management.jfr,\
jdk.naming.dns,jdk.net,jdk.security.auth,jdk.security.jgss,jdk.unsupported,jdk.zipfs

rm -rf "${out:?}"/*
mkdir -p "$out/opt" "$out/etc" "$out/tmp" "$out/home/fairledger"
"$java_home/bin/jlink" --module-path "$java_home/jmods" --add-modules "$modules" --strip-debug --no-man-pages \
  --no-header-files --compress=2 --output "$out/opt/java"

# headless only (the server draws charts without a display): no X11 toolkit, so no X11 libraries
rm -f "$out/opt/java/lib/libawt_xawt.so" "$out/opt/java/lib/libjawt.so" "$out/opt/java/lib/libsplashscreen.so"

# the trust store: some distributions link lib/security/cacerts to the system's; the image gets a real file
cacerts="$out/opt/java/lib/security/cacerts"
if [ -L "$cacerts" ] || [ ! -s "$cacerts" ]; then
  source_cacerts=$(readlink -f "$java_home/lib/security/cacerts")
  rm -f "$cacerts"
  cp "$source_cacerts" "$cacerts"
fi

# every shared library the runtime's executables and libraries load, and the dynamic loader, at their own paths
copy() {
  local file="$1"
  [ -e "$out$file" ] && return
  mkdir -p "$out$(dirname "$file")"
  cp -L "$file" "$out$file"
}
while read -r lib; do
  copy "$lib"
done < <(find "$out/opt/java" -type f \( -name '*.so' -o -perm -u+x \) -exec ldd {} \; 2>/dev/null \
  | awk '/=> \// { print $3 } /^[ \t]*\/.*ld-linux/ { print $1 }' | grep -v "^$out/" | sort -u)

cat > "$out/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
fairledger:x:1001:1001:fairledger:/home/fairledger:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
PASSWD
cat > "$out/etc/group" <<'GROUP'
root:x:0:
fairledger:x:1001:
nogroup:x:65534:
GROUP
echo "runtime for $(uname -m): $(du -sh "$out" | cut -f1) in $out ($(find "$out" -name '*.so*' -path '*/lib/*-linux-gnu/*' -o -name 'ld-linux*' | wc -l) system libraries)"
