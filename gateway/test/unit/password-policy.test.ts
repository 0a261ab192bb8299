import { checkPassword } from '../../src/domain/sign-in/password-policy';

describe('checkPassword', () => {
  it.each([
    ['a long, unlisted password', 'tangerine-walrus-47-kettle'],
    ['twelve characters exactly', 'q7#Lm2!zPx9v'],
    ['twelve emoji, counted as characters', '🍊🦭🐙🌵🎈🧲🍄🚲🪁🎻🧊🦔'],
  ])('accepts %s', (_what, password) => {
    expect(() => checkPassword(password, 'ana@example.com')).not.toThrow();
  });

  it.each([
    ['shorter than 12', 'q7#Lm2!zPx9', 'validation.stringMin'],
    ['in the common list (any case)', 'QWERTYUIOP123', 'password.common'],
    ['a short run repeated', 'xyzxyzxyzxyz', 'password.common'],
    ['the email local part inside', 'my-ana.lowry-secret', 'password.containsEmail'],
  ])('refuses a password %s', (_what, password, messageKey) => {
    expect(() => checkPassword(password, 'ana.lowry@example.com')).toThrow(
      expect.objectContaining({ status: 400, messageKey }),
    );
  });
});
