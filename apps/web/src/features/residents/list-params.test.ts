import { describe, expect, it } from 'vitest';
import { listRequest, readListView, writeListView } from './list-params.ts';

const read = (search: string) => readListView(new URLSearchParams(search));

describe('the list view in the address', () => {
  it('reads the bare path as page 1 of the unfiltered list', () => {
    expect(read('')).toEqual({ filters: {}, pageNum: 1, pageSize: 10 });
    expect(listRequest(read(''))).toEqual({ pageNum: 1, pageSize: 10 });
  });

  it('round-trips every filter and the page', () => {
    const view = {
      filters: {
        keyWord: 'Chen',
        state: 'checkedOut' as const,
        gender: 1 as const,
        priority: false,
        areaId: 4,
        roomId: 9,
        ageMin: 70,
        ageMax: 90,
      },
      pageNum: 3,
      pageSize: 20,
    };
    const search = writeListView(view).toString();
    expect(read(search)).toEqual(view);
    expect(listRequest(read(search))).toEqual({ pageNum: 3, pageSize: 20, ...view.filters });
  });

  it('leaves defaults out, so the first unfiltered page is the bare path', () => {
    expect(writeListView({ filters: {}, pageNum: 1, pageSize: 10 }).toString()).toBe('');
  });

  it('ignores what the server would refuse instead of sending it', () => {
    expect(read('state=gone&gender=2&priority=maybe&areaId=-1&roomId=abc&ageMin=200&pageNum=0&pageSize=7')).toEqual({
      filters: {},
      pageNum: 1,
      pageSize: 10,
    });
  });

  it('drops a reversed age range (the server refuses ageMin > ageMax)', () => {
    expect(read('ageMin=90&ageMax=70').filters).toEqual({});
    expect(read('ageMin=70&ageMax=70').filters).toEqual({ ageMin: 70, ageMax: 70 });
  });

  it('trims the keyword and drops an empty one', () => {
    expect(read('keyWord=%20%20').filters).toEqual({});
    expect(read('keyWord=%20Li%20').filters).toEqual({ keyWord: 'Li' });
  });
});
