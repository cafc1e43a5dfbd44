// `npm run totp -- <secret>`: the current 6-digit code of a TOTP secret (RFC 6238, 30 s), like an
// authenticator app would show — for the demo staff logins `npm start` prints. Needs the secret:
// it is no way around the second factor.
import { generate } from 'otplib';

const secret = process.argv.slice(2).join('').replace(/\s+/g, '').toUpperCase();
if (!/^[A-Z2-7]{16,}=*$/.test(secret)) {
  process.stderr.write('Usage: npm run totp -- <base32 secret>\n');
  process.exit(2);
}
const code = await generate({ secret });
const left = 30 - (Math.floor(Date.now() / 1000) % 30);
process.stdout.write(`${code}  (valid for ${left} s more)\n`);
