import { describe, expect, it } from 'vitest';
import { parseBasic } from '../../../src/server/auth.js';

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('parseBasic', () => {
  it('splits at the first colon, so passwords may hold colons', () => {
    expect(parseBasic(`Basic ${encode('admin:a:b:c')}`)).toEqual({ login: 'admin', password: 'a:b:c' });
    expect(parseBasic(`basic ${encode('ünï:pässwörd')}`)).toEqual({ login: 'ünï', password: 'pässwörd' });
    expect(parseBasic(`Basic ${encode('admin:')}`)).toEqual({ login: 'admin', password: '' });
  });

  it('gives undefined for anything malformed', () => {
    for (const header of ['', 'Basic', 'Basic ', 'Basic !!!', `Bearer ${encode('a:b')}`, `Basic ${encode('no-colon')}`, `Basic ${encode('a:b')} extra`]) {
      expect(parseBasic(header), header).toBeUndefined();
    }
  });
});
