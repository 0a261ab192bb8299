#!/bin/sh
# compose's one-shot `kafka-certificates` (apache/kafka image, for keytool):
# a CA made for this stack, the broker's TLS key and certificate for the
# names `kafka` and `localhost` signed by it, and the CA certificate alone for
# the clients. The CA's private key is deleted once it signed: nothing else can
# be issued under it. Runs once; a volume that already holds the keystore is
# left as it is.
#
# local-servers/kafka.sh runs it too, outside any container; the defaults are
# compose's. KAFKA_SECRETS_DIR, KAFKA_CA_DIR: the two folders; KAFKA_FILES_OWNER:
# who reads them (chown's user[:group]); KAFKA_CERT_SAN: the broker's names.
set -eu
secrets=${KAFKA_SECRETS_DIR:-/etc/kafka/secrets}   # the broker's volume: keystore and its password
ca_dir=${KAFKA_CA_DIR:-/var/lib/kafka-ca}          # the clients' volume: the CA certificate only
owner=${KAFKA_FILES_OWNER:-1000:1000}
san=${KAFKA_CERT_SAN:-dns:kafka,dns:localhost}
if [ -f "$secrets/broker.p12" ]; then
  echo "kafka TLS material already there"
  exit 0
fi
work=$(mktemp -d)
password=$(head -c 32 /dev/urandom | base64 | tr -d '/+=\n')
keytool -genkeypair -alias ca -dname "CN=skills-catalog compose Kafka CA" -ext bc:c -keyalg EC -groupname secp256r1 \
  -validity 825 -keystore "$work/ca.p12" -storetype PKCS12 -storepass "$password"
keytool -exportcert -alias ca -keystore "$work/ca.p12" -storepass "$password" -rfc -file "$work/ca.crt"
keytool -genkeypair -alias broker -dname "CN=kafka" -keyalg EC -groupname secp256r1 \
  -validity 825 -keystore "$work/broker.p12" -storetype PKCS12 -storepass "$password"
keytool -certreq -alias broker -keystore "$work/broker.p12" -storepass "$password" -file "$work/broker.csr"
keytool -gencert -alias ca -keystore "$work/ca.p12" -storepass "$password" -infile "$work/broker.csr" \
  -outfile "$work/broker.crt" -rfc -ext "SAN=$san" -validity 825
keytool -importcert -alias ca -file "$work/ca.crt" -keystore "$work/broker.p12" -storepass "$password" -noprompt
keytool -importcert -alias broker -file "$work/broker.crt" -keystore "$work/broker.p12" -storepass "$password" -noprompt
cp "$work/broker.p12" "$secrets/broker.p12"
printf '%s' "$password" > "$secrets/broker-credentials"
cp "$work/ca.crt" "$ca_dir/ca.crt"
rm -rf "$work"
# The broker (uid 1000, appuser) reads its keystore; our services (uid 1000) the CA certificate.
chown "$owner" "$secrets/broker.p12" "$secrets/broker-credentials" "$ca_dir/ca.crt"
chmod 400 "$secrets/broker.p12" "$secrets/broker-credentials"
chmod 444 "$ca_dir/ca.crt"
echo "kafka TLS material made"
